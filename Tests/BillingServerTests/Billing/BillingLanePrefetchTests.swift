@testable import BillingServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing


/// What an inbox lane reads up front (`BillingLaneSQL.prefetch`), on SQLite and PostgreSQL: the
/// named users' apps (and locks), the ids that are no user, every lineage's heads of those users,
/// and which ids are transfer sources; the memo then answers the ledger's reads exactly as the
/// database does.
@Suite struct BillingLanePrefetchTests {
    static func entry(_ id: String, user: String, lineage: String, expiration: Int64, eventTime: Int64) -> PlanEntry {
        PlanEntry(
            id: id, userID: user, app: .pulse, planType: "pulsecheck-monthly", productID: "pc_1m", platform: .ios,
            provider: .revenuecat, lineage: lineage, kind: .renewal, expiration: expiration, eventTime: eventTime,
            eventID: "e-\(id)", sandbox: false, createdAt: 1
        )
    }

    @Test("prefetch remembers users, absent ids, all heads and transfer sources; reads then match the database", arguments: Backend.all)
    func prefetchMatchesTheDatabase(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Migrator(ServerMigrations.all).migrate(database, logger: platformLogger)
            let sql = database.sql
            for user in ["u1", "u2"] { try await BillingHeadsTests.addUser(user, on: sql) }
            try await database.transaction { sql in
                try await BillingLedger.insert(Self.entry("p1", user: "u1", lineage: "otx-a", expiration: 100, eventTime: 1), on: sql)
                try await BillingLedger.insert(Self.entry("p2", user: "u1", lineage: "otx-a", expiration: 200, eventTime: 2), on: sql)
                try await BillingLedger.insert(Self.entry("p3", user: "u1", lineage: "otx-b", expiration: 300, eventTime: 1), on: sql)
                try await BillingLedger.remember(
                    BillingTransfer(eventID: "t1", fromID: "alias-x", toUserID: "u2", eventTime: 5), now: 1, on: sql
                )
            }
            let other = try await Database.open(database.configuration, logger: platformLogger)
            try await database.transaction { base in
                let lane = BillingLaneSQL(base: base)
                try await lane.prefetch(["u1", "u2", "ghost", "alias-x", ""])
                #expect(lane.memo.lockedApp("u1") == .pulse)
                #expect(lane.memo.lockedApp("u2") == .pulse)
                #expect(lane.memo.isAbsent("ghost"))
                #expect(lane.memo.isAbsent("alias-x"))
                #expect(!lane.memo.isAbsent("u1"))
                #expect(try await BillingLedger.app(ofUser: "ghost", locking: true, on: lane) == nil)
                for (user, lineage) in [("u1", "otx-a"), ("u1", "otx-b"), ("u1", "otx-new"), ("u2", "otx-a")] {
                    let key = LineageKey(provider: .revenuecat, lineage: lineage)
                    let remembered = try #require(lane.memo.heads(userID: user, lineage: key), "\(user) \(lineage)")
                    let stored = try await BillingLedger.heads(userID: user, lineage: key, on: base)
                    #expect(remembered.entries.map(\.id).sorted() == stored.entries.map(\.id).sorted(), "\(user) \(lineage)")
                }
                #expect(lane.memo.heads(userID: "u1", lineage: LineageKey(provider: .revenuecat, lineage: "otx-a"))?.latest?.id == "p2")
                #expect(lane.memo.heads(userID: "ghost", lineage: LineageKey(provider: .revenuecat, lineage: "otx-a")) == nil)
                #expect(lane.memo.knowsNoTransfer(from: ["u1", "u2"]))
                #expect(!lane.memo.knowsNoTransfer(from: ["u1", "alias-x"]))
                #expect(!lane.memo.knowsNoTransfer(from: ["never-checked"]))
                #expect(try await BillingLedger.firstTransfer(from: ["alias-x"], atOrAfter: 0, on: lane)?.eventID == "t1")
                #expect(try await BillingLedger.firstTransfer(from: ["u1"], atOrAfter: 0, on: lane) == nil)
                if backend == .postgresql {
                    // The named users are locked until the lane's transaction ends.
                    await #expect(throws: (any Error).self) {
                        try await other.transaction { sql in
                            _ = try await sql.raw("SELECT id FROM kindred_users WHERE id = 'u1' FOR UPDATE NOWAIT").all()
                        }
                    }
                }
            }
            if backend == .postgresql {
                let locked = try await other.transaction { sql in
                    try await sql.raw("SELECT id FROM kindred_users WHERE id = 'u1' FOR UPDATE NOWAIT").all().count
                }
                #expect(locked == 1)
            }
            await other.close()
        }
    }

    @Test("several subscription records saved in one statement read back exactly, NULLs and empty strings kept", arguments: Backend.all)
    func recordsSavedTogether(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Migrator(ServerMigrations.all).migrate(database, logger: platformLogger)
            for user in ["u1", "u2", "u3"] { try await BillingHeadsTests.addUser(user, on: database.sql) }
            var first = SubscriptionRecord(
                userID: "u1", app: .pulse, username: "", email: "a@example.com", platform: .ios, planType: "pulsecheck-monthly",
                status: .active, latestExpiration: 1_750_000_000, trialEnd: -1, doubleBilling: true, createdAt: 1, updatedAt: 2
            )
            let second = SubscriptionRecord(userID: "u2", app: .pulse, status: .unknown, createdAt: 3, updatedAt: 4)
            try await BillingLedger.save(second, on: database.sql)
            try await BillingLedger.save([first, second], on: database.sql)
            var stored = try await BillingLedger.records(of: ["u1", "u2", "u3"], on: database.sql)
            #expect(stored == ["u1": first, "u2": second])
            // Saved again: replaced in place.
            first.status = .expired
            first.username = nil
            first.updatedAt = 9
            var changed = second
            changed.latestExpiration = 5
            try await BillingLedger.save([first, changed], on: database.sql)
            stored = try await BillingLedger.records(of: ["u1", "u2"], on: database.sql)
            #expect(stored == ["u1": first, "u2": changed])
        }
    }

    @Test("deferred writes: a lane's record of an event someone else recorded meanwhile fails its flush", arguments: Backend.all)
    func deferredRecordConflictFailsTheLane(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Migrator(ServerMigrations.all).migrate(database, logger: platformLogger)
            try await BillingHeadsTests.addUser("u1", on: database.sql)
            let record = BillingLaneMemo.EventRecord(
                provider: .revenuecat, eventID: "evt-1", type: "RENEWAL", userID: "u1", outcome: "applied", eventTime: 1, appliedAt: 2
            )
            await #expect(throws: (any Error).self) {
                try await database.transaction { base in
                    let lane = BillingLaneSQL(base: base)
                    try await lane.prefetch(["u1"], events: [(.revenuecat, "evt-1")])
                    #expect(lane.memo.record(record))
                    #expect(!lane.memo.record(record), "a second record of one event in a lane is a duplicate")
                    // Recorded by someone else after the lane began (written here on the lane's own
                    // connection, bypassing the lane, as a stand-in).
                    try await base.raw("""
                        INSERT INTO kindred_billing_events (provider, event_id, type, user_id, outcome, event_time, applied_at)
                        VALUES ('revenuecat', 'evt-1', 'RENEWAL', 'u1', 'applied', 1, 2)
                        """).run()
                    try await lane.flush()
                }
            }
            #expect(try await database.sql.raw("SELECT COUNT(*) AS n FROM kindred_billing_events").first()?.decode(column: "n", as: Int.self) == 0)
            // A lane that begins after the record knows it: the event is a duplicate there.
            try await database.sql.raw("""
                INSERT INTO kindred_billing_events (provider, event_id, type, user_id, outcome, event_time, applied_at)
                VALUES ('revenuecat', 'evt-1', 'RENEWAL', 'u1', 'applied', 1, 2)
                """).run()
            try await database.transaction { base in
                let lane = BillingLaneSQL(base: base)
                try await lane.prefetch(["u1"], events: [(.revenuecat, "evt-1"), (.stripe, "evt-1")])
                #expect(!lane.memo.record(record))
                var stripe = record
                stripe.provider = .stripe
                #expect(lane.memo.record(stripe), "the same id from another provider is another event")
                try await lane.flush()
            }
            #expect(try await database.sql.raw("SELECT COUNT(*) AS n FROM kindred_billing_events").first()?.decode(column: "n", as: Int.self) == 2)
        }
    }
}
