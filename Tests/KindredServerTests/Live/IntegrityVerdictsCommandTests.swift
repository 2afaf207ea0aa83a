import Foundation
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// Runs the built `kindred integrity verdicts` on a SQLite file holding recorded verdicts.
@Suite struct IntegrityVerdictsCommandTests {
    @Test func listsVerdictsNewestFirstPerUserAsLinesOrJSON() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kindred-integrity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("kindred.sqlite").path
        let database = try await Database.open(DatabaseConfiguration(url: .sqlite(path: path)))
        let clock = TestClock(start: Date(timeIntervalSince1970: 1_790_000_000))
        do {
            try await Migrator(ServerMigrations.all).migrate(database)
            for id in ["user-a", "user-b"] {
                try await database.sql.insert(into: "kindred_users").columns("id", "app", "is_anonymous", "created_at", "updated_at")
                    .values(SQLBind(id), SQLBind("closer"), SQLBind(true), SQLBind(0), SQLBind(0)).run()
            }
            let store = IntegrityStore(database: database, clock: clock)
            try await store.record(.passed, userID: "user-a", app: .closer, device: "key-a", platform: .appAttest)
            clock.advance(by: .seconds(1))
            try await store.record(.failed(reason: "nonce does not match"), userID: "user-a", app: .closer, device: "pixel-0001", platform: .playIntegrity)
            clock.advance(by: .seconds(1))
            try await store.record(.passed, userID: "user-b", app: .closer, device: "key-b", platform: .appAttest)
            await database.close()
        } catch {
            await database.close()
            throw error
        }

        let lines = try runKindred(["integrity", "verdicts", "--user", "user-a", "--database-url", "sqlite:\(path)", "--log-level", "error"])
        #expect(lines.status == 0, "\(lines.stderr)")
        #expect(lines.stdout == """
            2026-09-21T14:13:21Z\tuser-a\tcloser\tplay_integrity\tpixel-0001\tfailed\tnonce does not match
            2026-09-21T14:13:20Z\tuser-a\tcloser\tapp_attest\tkey-a\tpassed\t-

            """)

        let json = try runKindred(["integrity", "verdicts", "--json", "--database-url", "sqlite:\(path)", "--log-level", "error"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let verdicts = try #require(object["verdicts"] as? [[String: Any]])
        #expect(verdicts.map { $0["userID"] as? String } == ["user-b", "user-a", "user-a"])
        #expect(verdicts.map { $0["verdict"] as? String } == ["passed", "failed", "passed"])

        let bad = try runKindred(["integrity", "verdicts", "--limit", "0", "--json", "--database-url", "sqlite:\(path)"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--limit must be between 1 and 1000"))
    }
}
