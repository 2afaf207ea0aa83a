@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// The daily-assignment job with a pinned clock: DST changes in America/Chicago, couples in
/// Asia/Tokyo and Pacific/Auckland, idempotent re-runs.
@Suite struct CloserAssignmentTests {
    static func at(_ iso: String) -> Date { ISO8601DateFormatter().date(from: iso) ?? Date(timeIntervalSince1970: 0) }

    static func days(_ sql: any SQLDatabase, _ coupleID: String) async throws -> [String] {
        try await sql.select().column("date_key").from("closer_days").where("couple_id", .equal, coupleID).orderBy("date_key").all()
            .map { try $0.decode(column: "date_key", as: String.self) }
    }

    @Test(arguments: Backend.all)
    func chicagoAcrossBothDSTChangesGetsEachDateOnce(backend: Backend) async throws {
        let clock = TestClock(start: Self.at("2026-03-07T18:00:00Z"))  // noon in Chicago
        try await TestApplication.run(on: backend, clock: clock) { application, client in
            let pair = try await client.closerPair("dst")
            let platform = try Platform.server(database: application.database, clock: clock, logger: platformLogger)
            let runs: [(String, [String])] = [
                ("2026-03-08T04:45:00Z", []),  // 22:45 CST
                ("2026-03-08T05:00:00Z", ["2026-03-07"]),  // 23:00 CST
                ("2026-03-08T05:15:00Z", ["2026-03-07"]),
                ("2026-03-09T03:45:00Z", ["2026-03-07"]),  // 22:45 CDT
                ("2026-03-09T04:00:00Z", ["2026-03-07", "2026-03-08"]),  // 23:00 CDT, the day after the change
                ("2026-03-09T04:00:00Z", ["2026-03-07", "2026-03-08"]),
                ("2026-11-01T04:00:00Z", ["2026-03-07", "2026-03-08", "2026-10-31"]),  // 23:00 CDT
                ("2026-11-02T04:00:00Z", ["2026-03-07", "2026-03-08", "2026-10-31"]),  // 22:00 CST (a fixed -5 would say 23:00)
                ("2026-11-02T05:00:00Z", ["2026-03-07", "2026-03-08", "2026-10-31", "2026-11-01"]),  // 23:00 CST
                ("2026-11-02T05:15:00Z", ["2026-03-07", "2026-03-08", "2026-10-31", "2026-11-01"]),
            ]
            for (time, expected) in runs {
                clock.set(Self.at(time))
                let run = try await platform.jobs.runNow("closer.assign-daily-questions")
                #expect(run.outcome == .ok, "\(time): \(run.message)")
                #expect(try await Self.days(application.database.sql, pair.coupleID) == expected, "\(time)")
            }
            // Months have passed: the access token expired, so sign in again.
            let session = try await client.logIn("dst-a@example.com").decode(SessionBody.self)
            let today = client.object(try await client.call(.get, "/v1/closer/couples/\(pair.coupleID)/today", token: session.accessToken))
            #expect(today["date"] as? String == "2026-11-01")
            #expect(today["expiresAt"] as? String == "2026-11-03T05:00:00Z")
            #expect(today["answersCloseAt"] as? String == "2026-11-04T05:00:00Z")
        }
    }

    @Test(arguments: Backend.all)
    func couplesInTokyoAndAucklandGetTheirOwnEleven(backend: Backend) async throws {
        let clock = TestClock(start: Self.at("2026-03-10T00:00:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { application, client in
            let tokyo = try await client.closerPair("tokyo")
            let auckland = try await client.closerPair("auckland")
            for (pair, zone) in [(tokyo, "Asia/Tokyo"), (auckland, "Pacific/Auckland")] {
                let patch = try await client.call(
                    .patch, "/v1/closer/couples/\(pair.coupleID)/settings", token: pair.acceptor.accessToken, json: #"{"timeZone":"\#(zone)"}"#
                )
                #expect(patch.status == .ok)
            }
            let platform = try Platform.server(database: application.database, clock: clock, logger: platformLogger)
            let sql = application.database.sql
            // 23:00 in Auckland (NZDT, +13) is 10:00Z; in Tokyo (+9) 14:00Z.
            clock.set(Self.at("2026-03-10T09:45:00Z"))
            _ = try await platform.jobs.runNow("closer.assign-daily-questions")
            #expect(try await Self.days(sql, auckland.coupleID) == [])
            clock.set(Self.at("2026-03-10T10:00:00Z"))
            _ = try await platform.jobs.runNow("closer.assign-daily-questions")
            #expect(try await Self.days(sql, auckland.coupleID) == ["2026-03-10"])
            #expect(try await Self.days(sql, tokyo.coupleID) == [])
            clock.set(Self.at("2026-03-10T14:00:00Z"))
            _ = try await platform.jobs.runNow("closer.assign-daily-questions")
            #expect(try await Self.days(sql, tokyo.coupleID) == ["2026-03-10"])
            #expect(try await Self.days(sql, auckland.coupleID) == ["2026-03-10"])
        }
    }

    @Test func questionOrderDoesNotRepeatUntilThePackIsExhausted() throws {
        let catalog = try CloserCatalog(try CloserCatalog.bundledDocument())
        let pack = try #require(catalog.packsByID["everyday"])
        let cycle = (0..<pack.activeQuestions.count).compactMap { QuestionOrder.question(at: $0, coupleID: "c1", pack: pack)?.id }
        #expect(Set(cycle).count == pack.activeQuestions.count)
        let next = (pack.activeQuestions.count..<(2 * pack.activeQuestions.count)).compactMap {
            QuestionOrder.question(at: $0, coupleID: "c1", pack: pack)?.id
        }
        #expect(Set(next) == Set(cycle))
        #expect(next != cycle)
        let other = (0..<pack.activeQuestions.count).compactMap { QuestionOrder.question(at: $0, coupleID: "c2", pack: pack)?.id }
        #expect(other != cycle)
    }
}
