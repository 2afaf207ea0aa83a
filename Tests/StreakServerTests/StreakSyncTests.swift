@testable import KindredServer
@testable import KindredServerCore
@testable import StreakServer
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// The sync of results: idempotent batch upserts decided by the latest modification, and pulls of
/// changes in the server's order from a cursor.
@Suite struct StreakSyncTests {
    /// Uploads `records`; returns (applied, ignored).
    static func upload(_ client: any TestClientProtocol, _ member: StreakMember, _ records: [String]) async throws -> (Int, Int) {
        let response = try await client.streak(.post, "/v1/streaksync/results", token: member.token, json: StreakFixtures.results(records))
        #expect(response.status == .ok, "\(response.text)")
        let summary = client.object(response)
        return (summary["applied"] as? Int ?? -1, summary["ignored"] as? Int ?? -1)
    }

    /// Pulls one page; returns the records, the cursor and whether more wait.
    static func pull(_ client: any TestClientProtocol, _ member: StreakMember, cursor: String? = nil, limit: Int? = nil) async throws
        -> (records: [[String: Any]], cursor: String, hasMore: Bool)
    {
        var query: [String] = []
        if let cursor { query.append("cursor=\(cursor)") }
        if let limit { query.append("limit=\(limit)") }
        let path = "/v1/streaksync/results" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        let response = try await client.streak(.get, path, token: member.token)
        #expect(response.status == .ok, "\(response.text)")
        let page = client.object(response)
        return (page["results"] as? [[String: Any]] ?? [], page["cursor"] as? String ?? "", page["hasMore"] as? Bool ?? false)
    }

    @Test(arguments: Backend.all)
    func anUploadIsIdempotentAndTheLaterModificationWins(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { application, client in
            let ada = try await client.streakMember("ada", profile: false)
            let first = [
                StreakFixtures.result("wordle:1200:2026-07-01", score: 4),
                StreakFixtures.result("connections:700:2026-07-01", game: "connections", puzzle: 700, score: 5, max: 7, fields: nil),
                StreakFixtures.result("spelling-bee:-:2026-07-01", game: "spelling-bee", puzzle: 0, score: 120, max: 180),
            ]
            #expect(try await Self.upload(client, ada, first) == (3, 0))
            // The same batch again changes nothing.
            #expect(try await Self.upload(client, ada, first) == (0, 3))
            // A later modification replaces; an equal or earlier one is ignored whatever it says.
            #expect(try await Self.upload(client, ada, [
                StreakFixtures.result("wordle:1200:2026-07-01", score: 3, updatedAt: "2026-07-01T09:00:00Z"),
                StreakFixtures.result("connections:700:2026-07-01", game: "connections", score: 1, updatedAt: "2026-07-01T08:00:00Z"),
                StreakFixtures.result("spelling-bee:-:2026-07-01", game: "spelling-bee", score: 1, updatedAt: "2026-07-01T07:59:59Z"),
            ]) == (1, 2))
            // A tombstone is a modification like any other.
            #expect(try await Self.upload(client, ada, [
                StreakFixtures.result("connections:700:2026-07-01", game: "connections", puzzle: 700, score: 5, max: 7, updatedAt: "2026-07-01T10:00:00Z", fields: nil, deleted: true),
            ]) == (1, 0))

            let page = try await Self.pull(client, ada)
            let byID = Dictionary(uniqueKeysWithValues: page.records.map { ($0["id"] as? String ?? "", $0) })
            #expect(byID.count == 3 && !page.hasMore)
            #expect(byID["wordle:1200:2026-07-01"]?["score"] as? Int == 3)
            #expect(byID["wordle:1200:2026-07-01"]?["updatedAt"] as? String == "2026-07-01T09:00:00Z")
            #expect(byID["spelling-bee:-:2026-07-01"]?["score"] as? Int == 120)
            #expect(byID["connections:700:2026-07-01"]?["deleted"] as? Bool == true)
            #expect(byID["connections:700:2026-07-01"]?["fields"] == nil)
            #expect(byID["spelling-bee:-:2026-07-01"]?["deleted"] as? Bool == false)
            // Game-specific fields come back as they were sent.
            let fields = byID["wordle:1200:2026-07-01"]?["fields"] as? [String: Any]
            #expect(fields?["guesses"] as? [String] == ["crane", "slate"])
            // The change order: the last change comes last.
            #expect(page.records.last?["id"] as? String == "connections:700:2026-07-01")
            // The account's other devices were told each time something changed (not for the no-op batch).
            let told = try await StreakFixtures.events("streaksync.sync", for: ada.id, on: application.database)
            #expect(told.map { $0.strings["collection"] } == ["results", "results", "results"])
            #expect(told.last?.strings["cursor"] == page.cursor)
        }
    }

    @Test(arguments: Backend.all)
    func recordsOfOneIdInOneBatchApplyInOrder(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { _, client in
            let ada = try await client.streakMember("ada", profile: false)
            #expect(try await Self.upload(client, ada, [
                StreakFixtures.result("r", score: 5, updatedAt: "2026-07-01T08:00:00Z"),
                StreakFixtures.result("r", score: 4, updatedAt: "2026-07-01T08:00:01Z"),
                StreakFixtures.result("r", score: 6, updatedAt: "2026-07-01T08:00:00Z"),
            ]) == (2, 1))
            let page = try await Self.pull(client, ada)
            #expect(page.records.map { $0["score"] as? Int } == [4])
        }
    }

    @Test(arguments: Backend.all)
    func aPullPagesInChangeOrderAndResumesFromItsCursor(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { _, client in
            let ada = try await client.streakMember("ada", profile: false)
            let bea = try await client.streakMember("bea", profile: false)
            let ids = (1...7).map { "wordle:\(1_000 + $0):2026-06-\(String(format: "%02d", $0 + 10))" }
            #expect(try await Self.upload(client, ada, ids.map { StreakFixtures.result($0) }) == (7, 0))
            #expect(try await Self.upload(client, bea, [StreakFixtures.result("beas-own")]) == (1, 0))

            var pages: [[String]] = []
            var cursor: String?
            var more = true
            while more {
                let page = try await Self.pull(client, ada, cursor: cursor, limit: 3)
                pages.append(page.records.compactMap { $0["id"] as? String })
                cursor = page.cursor
                more = page.hasMore
            }
            #expect(pages == [Array(ids[0..<3]), Array(ids[3..<6]), [ids[6]]])
            // Nothing new: an empty page and the same cursor.
            let idle = try await Self.pull(client, ada, cursor: cursor)
            #expect(idle.records.isEmpty && idle.cursor == cursor && !idle.hasMore)
            // A change to an old record comes after the cursor, once.
            #expect(try await Self.upload(client, ada, [StreakFixtures.result(ids[1], score: 2, updatedAt: "2026-07-01T11:00:00Z")]) == (1, 0))
            let next = try await Self.pull(client, ada, cursor: cursor)
            #expect(next.records.map { $0["id"] as? String } == [ids[1]])
            #expect(try await Self.pull(client, ada, cursor: next.cursor).records.isEmpty)
            // A fresh device pulls every record once, each at its latest change.
            let all = try await Self.pull(client, ada, limit: 500)
            #expect(all.records.compactMap { $0["id"] as? String } == [ids[0]] + Array(ids[2...]) + [ids[1]])
        }
    }

    @Test(arguments: Backend.all)
    func badRecordsAreRefusedNamingTheFieldAndTheIndex(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { application, client in
            let ada = try await client.streakMember("ada", profile: false)
            let good = StreakFixtures.result("good")
            let bigFields = #"{"notes":"\#(String(repeating: "x", count: 2040))"}"#
            let cases: [(String, String)] = [
                (StreakFixtures.result("bad id!"), "results[1].id must be 1 to 64"),
                (StreakFixtures.result(String(repeating: "a", count: 65)), "body.results[1].id is longer than 64 characters"),
                (StreakFixtures.result("r", game: "Wordle"), "results[1].gameId must be"),
                (StreakFixtures.result("r", game: String(repeating: "a", count: 33)), "body.results[1].gameId is longer than 32 characters"),
                (StreakFixtures.result("r", puzzle: -1), "body.results[1].puzzle is less than 0"),
                (StreakFixtures.result("r", score: 1_000_001), "results[1].score must be 0 to 1000000"),
                (StreakFixtures.result("r", max: -1), "body.results[1].max is less than 0"),
                (StreakFixtures.result("r", date: "2026-02-30"), "results[1].localDate must be a calendar date"),
                (StreakFixtures.result("r", date: "2026-7-01"), "results[1].localDate must be a calendar date"),
                (StreakFixtures.result("r", recordedAt: "1999-12-31T23:59:59Z"), "results[1].recordedAt must be after 2000"),
                (StreakFixtures.result("r", updatedAt: "2026-07-02T12:00:01Z"), "results[1].updatedAt must be after 2000 and not in the future"),
                (StreakFixtures.result("r", fields: bigFields), "results[1].fields must be at most 2048 bytes"),
            ]
            for (bad, message) in cases {
                let response = try await client.streak(.post, "/v1/streaksync/results", token: ada.token, json: StreakFixtures.results([good, bad]))
                expectRefusal(response, 422, "invalid_result", message)
                #expect(response.text.contains(message), "\(response.text)")
            }
            // The batch is refused whole: not even the good record was stored.
            #expect(try await StreakFixtures.count("streaksync_results", where: "user_id", is: ada.id, on: application.database) == 0)
            // Batch sizes.
            expectRefusal(try await client.streak(.post, "/v1/streaksync/results", token: ada.token, json: #"{"results":[]}"#), 422, "invalid_result")
            let tooMany = StreakFixtures.results((0...500).map { StreakFixtures.result("r\($0)", fields: nil) })
            expectRefusal(try await client.streak(.post, "/v1/streaksync/results", token: ada.token, json: tooMany), 422, "invalid_result")
            // A record the contract's types cannot read is a 400, as everywhere.
            let missing = try await client.streak(.post, "/v1/streaksync/results", token: ada.token, json: #"{"results":[{"id":"x"}]}"#)
            #expect(missing.status == .badRequest, "\(missing.text)")
            let wrongType = try await client.streak(
                .post, "/v1/streaksync/results", token: ada.token,
                json: StreakFixtures.results([StreakFixtures.result("r").replacingOccurrences(of: #""score":4"#, with: #""score":"4""#)])
            )
            #expect(wrongType.status == .badRequest, "\(wrongType.text)")
            // Pull parameters.
            for query in ["cursor=abc", "cursor=-1", "cursor=1234567890123456789", "limit=0", "limit=501"] {
                expectRefusal(try await client.streak(.get, "/v1/streaksync/results?\(query)", token: ada.token), 400, "bad_request", query)
            }
        }
    }

    @Test(arguments: Backend.all)
    func aBatchAtTheBodyLimitIsRefusedBeforeItIsRead(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { _, client in
            let ada = try await client.streakMember("ada", profile: false)
            let fields = #"{"notes":"\#(String(repeating: "x", count: 2000))"}"#
            let body = StreakFixtures.results((0..<500).map { StreakFixtures.result("r\($0)", fields: fields) })
            #expect(body.utf8.count > 1 << 20)
            expectRefusal(try await client.streak(.post, "/v1/streaksync/results", token: ada.token, json: body), 413, "payload_too_large")
        }
    }

    @Test(arguments: Backend.all)
    func anAccountHoldsAtMostTheAllowedNumberOfRecords(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { application, client in
            let ada = try await client.streakMember("ada", profile: false)
            #expect(try await Self.upload(client, ada, [StreakFixtures.result("kept")]) == (1, 0))
            // As if Ada held all but one of the records allowed.
            let limit = StreakSettings().maxResultsPerUser
            try await application.database.sql.update("streaksync_sync_clocks").set("results", to: limit - 1)
                .where("user_id", .equal, ada.id).run()
            let two = [StreakFixtures.result("new-1"), StreakFixtures.result("new-2")]
            let refused = try await client.streak(.post, "/v1/streaksync/results", token: ada.token, json: StreakFixtures.results(two))
            expectRefusal(refused, 409, "too_many_results")
            // Updating a stored record and one new record still fit.
            #expect(try await Self.upload(client, ada, [
                StreakFixtures.result("kept", score: 2, updatedAt: "2026-07-01T09:00:00Z"), StreakFixtures.result("new-1"),
            ]) == (2, 0))
            expectRefusal(
                try await client.streak(.post, "/v1/streaksync/results", token: ada.token, json: StreakFixtures.results([StreakFixtures.result("new-3")])),
                409, "too_many_results"
            )
        }
    }
}
