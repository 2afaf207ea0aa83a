@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// The rhythm: a day is complete when both partners answered it — also when they answer at the
/// same moment — and the streak counts consecutive complete days, resetting after a gap.
@Suite struct CloserRhythmTests {
    @Test(arguments: Backend.all)
    func partnersAnsweringAtOnceCompleteTheDay(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { app, client in
            // Several couples, each pair of answers sent at once, to give a race every chance.
            var pairs: [(CloserPair, String)] = []
            for index in 0..<6 {
                let pair = try await client.closerPair("race\(index)")
                let today = try await client.call(.post, "/v1/closer/couples/\(pair.coupleID)/today", token: pair.inviter.accessToken)
                #expect(today.status == .created)
                pairs.append((pair, client.object(today)["date"] as? String ?? ""))
            }
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for (pair, date) in pairs {
                    for member in [pair.inviter, pair.acceptor] {
                        group.addTask {
                            let path = "/v1/closer/couples/\(pair.coupleID)/days/\(date)/answers/\(member.user.id)"
                            return try await client.call(.put, path, token: member.accessToken, json: CloserFixtures.sealedAnswer()).status
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: .created, count: 12))
            for (pair, date) in pairs {
                let couple = client.object(try await client.call(.get, "/v1/closer/couples/\(pair.coupleID)", token: pair.acceptor.accessToken))
                #expect(couple["streakCount"] as? Int == 1, "couple \(pair.coupleID)")
                #expect(couple["lastAnsweredDate"] as? String == date)
                let completed = try await app.database.sql.select().column("completed_at").from("closer_days")
                    .where("couple_id", .equal, pair.coupleID).first()?.decode(column: "completed_at", as: Int64?.self)
                #expect(completed != nil, "the day of couple \(pair.coupleID) is complete")
            }
        }
    }

    @Test(arguments: Backend.all)
    func theStreakCountsConsecutiveDaysAndAGapResetsIt(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { app, client in
            let pair = try await client.closerPair("streak")
            let today = try await client.call(.post, "/v1/closer/couples/\(pair.coupleID)/today", token: pair.inviter.accessToken)
            let day = client.object(today)
            let first = try #require(day["date"] as? String), question = try #require(day["questionId"] as? String)
            // Later dates are written as the daily job would have assigned them (no clock travel:
            // the sessions' tokens would expire).
            let expires = Int64(app.clock.now().timeIntervalSince1970 * 1000) + 86_400_000
            for date in [Self.date(first, plus: 1), Self.date(first, plus: 3)] {
                try await app.database.sql.insert(into: "closer_days")
                    .columns("couple_id", "date_key", "question_id", "assigned_at", "expires_at")
                    .values(SQLBind(pair.coupleID), SQLBind(date), SQLBind(question), SQLBind(expires - 86_400_000), SQLBind(expires))
                    .run()
            }
            var streaks: [Int] = []
            for date in [first, Self.date(first, plus: 1), Self.date(first, plus: 3)] {
                for member in [pair.inviter, pair.acceptor] {
                    let path = "/v1/closer/couples/\(pair.coupleID)/days/\(date)/answers/\(member.user.id)"
                    let answer = try await client.call(.put, path, token: member.accessToken, json: CloserFixtures.sealedAnswer())
                    #expect(answer.status == .created)
                }
                let couple = client.object(try await client.call(.get, "/v1/closer/couples/\(pair.coupleID)", token: pair.inviter.accessToken))
                streaks.append(couple["streakCount"] as? Int ?? -1)
                #expect(couple["lastAnsweredDate"] as? String == date)
            }
            #expect(streaks == [1, 2, 1])
        }
    }

    /// `date` (YYYY-MM-DD) plus `days`.
    static func date(_ date: String, plus days: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = date.split(separator: "-").compactMap { Int($0) }
        let start = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))!
        let next = calendar.date(byAdding: .day, value: days, to: start)!
        let c = calendar.dateComponents([.year, .month, .day], from: next)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }
}
