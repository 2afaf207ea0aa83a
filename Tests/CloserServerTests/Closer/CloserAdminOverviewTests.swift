@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Logging
import SQLKit
import Testing

/// Closer's console numbers: couples, answers written today and dates revealed today (both
/// partners answered), with their 30 UTC days, counted from the activity indexes.
@Suite struct CloserAdminOverviewTests {
    @Test(arguments: Backend.all)
    func answersAndRevealsAreCountedPerDay(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { app, client in
            let first = try await client.closerPair("overview-a")
            let second = try await client.closerPair("overview-b")
            // First couple: both answer (one answer and one reveal); second: one partner only.
            for (pair, both) in [(first, true), (second, false)] {
                let couple = "/v1/closer/couples/\(pair.coupleID)"
                let date = client.object(try await client.call(.post, "\(couple)/today", token: pair.inviter.accessToken))["date"] as? String ?? ""
                let writers = both ? [pair.inviter, pair.acceptor] : [pair.inviter]
                for user in writers {
                    let answer = #"{"schemaVersion":2,"encryptedText":"enc:v1:\#(CloserFixtures.base64(80))"}"#
                    let created = try await client.call(.put, "\(couple)/days/\(date)/answers/\(user.user.id)", token: user.accessToken, json: answer)
                    #expect(created.status == .created, "\(created.text)")
                }
            }
            // The lone answer was written 3 days ago: it counts in its day, not today.
            let threeDaysAgo = app.clock.now().millisecondsSince1970 - 3 * 86_400_000
            try await app.database.sql.update("closer_answers").set("created_at", to: threeDaysAgo)
                .where("couple_id", .equal, second.coupleID).run()

            var quiet = Logger(label: "test")
            quiet.logLevel = .critical
            let section = CloserAdminOverview.section(DomainEnvironment(database: app.database, clock: app.clock, logger: quiet))
            let counts = try await section.counts(AdminOverviewContext(now: app.clock.now(), apps: ["closer"]))
            #expect(counts.map(\.label) == ["Couples", "Answers today", "Reveals today"])
            #expect(counts.map(\.value) == [2, 2, 1])
            let answers = try #require(counts[1].series)
            #expect(answers.count == 30)
            #expect(answers[29] == 2 && answers[26] == 1 && answers.reduce(0, +) == 3)
            let reveals = try #require(counts[2].series)
            #expect(reveals[29] == 1 && reveals.reduce(0, +) == 1)
        }
    }

    /// The counts read indexes: SQLite's plan for each range names the activity index.
    @Test func theDailyCountsReadTheActivityIndexes() async throws {
        try await TestApplication.run(on: .sqlite) { app, _ in
            for (table, column, index) in [("closer_answers", "created_at", "closer_answers_created"), ("closer_days", "completed_at", "closer_days_completed")] {
                let plan = try await app.database.sql.raw("EXPLAIN QUERY PLAN SELECT COUNT(*) FROM \(ident: table) WHERE \(ident: column) >= \(bind: 0)").all()
                let details = try plan.map { try $0.decode(column: "detail", as: String.self) }.joined(separator: "; ")
                #expect(details.contains(index), "\(table): \(details)")
            }
        }
    }
}
