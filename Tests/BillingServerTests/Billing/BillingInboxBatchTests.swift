@testable import BillingServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// The inbox's batch path, on SQLite and PostgreSQL: a claimed lane of events is applied in one
/// transaction and completed in that transaction; an event about no known user is skipped in the
/// lane and retried alone; a lane whose transaction fails (a poisoned event, a failing
/// completion) is applied one event per transaction.
@Suite struct BillingInboxBatchTests {
    static let now = BillingFixtures.now
    static let day: Int64 = 86_400

    /// Three users' purchases (ids `p0`…`p2`) sent to the inbox without applying them.
    static func sendPurchases(_ client: any TestClientProtocol) async throws -> [String] {
        var users: [String] = []
        for index in 0..<3 {
            let user = try await client.signUp("batch\(index)@example.com", app: "pulse").user.id
            let body = BillingFixtures.revenueCat(
                id: "p\(index)", type: "INITIAL_PURCHASE", user: user, expiresAt: now + 30 * day, eventAt: now - 100,
                original: "otx-\(index)"
            )
            let response = try await client.revenueCatWebhook(body)
            #expect(response.status == .ok, "\(response.text)")
            users.append(user)
        }
        return users
    }

    static func count(_ query: String, _ sql: any SQLDatabase) async throws -> Int {
        try await sql.raw(SQLQueryString(query)).first()?.decode(column: "n", as: Int.self) ?? -1
    }

    @Test("a poisoned event in a batch is retried alone; the others apply and complete", arguments: Backend.all)
    func poisonedEvent(backend: Backend) async throws {
        let clock = TestClock(start: BillingFixtures.start)
        try await TestApplication.run(on: backend, clock: clock, billing: BillingFixtures.settings()) { application, client in
            let sql = application.database.sql
            try await Self.failPlanInserts(eventID: "p1", on: sql)
            let users = try await Self.sendPurchases(client)

            #expect(await application.platform.worker.processAvailable() == 3)
            #expect(try await application.subscription(of: users[0]).state == .active)
            #expect(try await application.subscription(of: users[1]).state == .unknown)
            #expect(try await application.subscription(of: users[2]).state == .active)
            let waiting = try await sql.raw("SELECT dedupe_key, attempts, last_error FROM kindred_queue_items").all()
            #expect(try waiting.map { try $0.decode(column: "dedupe_key", as: String.self) } == ["revenuecat:p1"])
            #expect(try waiting.first?.decode(column: "attempts", as: Int.self) == 1)
            let lastError = try waiting.first?.decode(column: "last_error", as: String?.self)
            // PostgresNIO's error description hides the server's message; SQLite's names it.
            #expect(backend == .postgresql ? lastError?.isEmpty == false : lastError?.contains("poisoned event") == true)
            #expect(try await Self.count("SELECT COUNT(*) AS n FROM kindred_billing_events", sql) == 2)
            // The rolled-back event published nothing.
            #expect(try await Self.count("""
                SELECT COUNT(*) AS n FROM kindred_realtime_events WHERE channel = 'user:\(users[1])'
                """, sql) == 0)
            #expect(try await Self.count("SELECT COUNT(*) AS n FROM kindred_realtime_events WHERE type = 'billing.entitlements'", sql) == 2)

            try await sql.raw("DELETE FROM billing_fault_switch").run()
            clock.advance(by: .seconds(3))
            await application.drainInbox()
            #expect(try await application.subscription(of: users[1]).state == .active)
            #expect(try await Self.count("SELECT COUNT(*) AS n FROM kindred_queue_items", sql) == 0)
            #expect(try await Self.count("SELECT COUNT(*) AS n FROM kindred_billing_plans", sql) == 3)
            #expect(try await Self.count("SELECT COUNT(DISTINCT event_id) AS n FROM kindred_billing_plans", sql) == 3)
            #expect(try await Self.count("SELECT COUNT(*) AS n FROM kindred_queue_dead_letters", sql) == 0)
        }
    }

    @Test("an event about no known user is skipped in its lane; the lane's others apply and complete", arguments: Backend.all)
    func unmatchedUserSkipped(backend: Backend) async throws {
        let clock = TestClock(start: BillingFixtures.start)
        try await TestApplication.run(on: backend, clock: clock, billing: BillingFixtures.settings()) { application, client in
            let sql = application.database.sql
            let user = try await client.signUp("skip@example.com", app: "pulse").user.id
            for body in [
                BillingFixtures.revenueCat(id: "s1", type: "INITIAL_PURCHASE", user: user, expiresAt: Self.now + 30 * Self.day, eventAt: Self.now - 100),
                BillingFixtures.revenueCat(
                    id: "s2", type: "INITIAL_PURCHASE", user: "ghost-user", expiresAt: Self.now + 30 * Self.day, eventAt: Self.now - 90,
                    original: "otx-ghost"
                ),
                BillingFixtures.revenueCat(id: "s3", type: "RENEWAL", user: user, expiresAt: Self.now + 60 * Self.day, eventAt: Self.now - 80),
            ] {
                #expect(try await client.revenueCatWebhook(body).status == .ok)
            }

            #expect(await application.platform.worker.processAvailable() == 3)
            let subscription = try await application.subscription(of: user)
            #expect(subscription.state == .active)
            #expect(subscription.latestExpiration == Self.now + 60 * Self.day)
            let waiting = try await sql.raw("SELECT dedupe_key, attempts, last_error FROM kindred_queue_items").all()
            #expect(try waiting.map { try $0.decode(column: "dedupe_key", as: String.self) } == ["revenuecat:s2"])
            #expect(try waiting.first?.decode(column: "attempts", as: Int.self) == 1)
            #expect(try waiting.first?.decode(column: "last_error", as: String?.self) == "no user matches the revenuecat ids ghost-user")
            #expect(try await Self.count("SELECT COUNT(*) AS n FROM kindred_billing_events", sql) == 2)
            #expect(try await Self.count("SELECT COUNT(*) AS n FROM kindred_billing_plans", sql) == 2)
            // One lane: the user's two events were recomputed and published once.
            #expect(try await Self.count("SELECT COUNT(*) AS n FROM kindred_realtime_events WHERE type = 'billing.entitlements'", sql) == 1)
        }
    }

    @Test("a batch whose transaction fails is applied one event per transaction: nothing lost, nothing twice", arguments: Backend.all)
    func failedBatchFallsBack(backend: Backend) async throws {
        let clock = TestClock(start: BillingFixtures.start)
        try await TestApplication.run(on: backend, clock: clock, billing: BillingFixtures.settings()) { application, client in
            let sql = application.database.sql
            let users = try await Self.sendPurchases(client)
            // Completing (deleting) queue items fails: the batch's multi-row completion fails, so
            // its transaction rolls back; each event is then applied in a transaction of its own,
            // whose completion fails too, so every item stays queued for a retry.
            try await Self.failQueueDeletes(on: sql)

            #expect(await application.platform.worker.processAvailable() == 3)
            for user in users {
                #expect(try await application.subscription(of: user).state == .active)
            }
            #expect(try await Self.count("SELECT COUNT(*) AS n FROM kindred_billing_events", sql) == 3)
            #expect(try await Self.count("SELECT COUNT(*) AS n FROM kindred_queue_items WHERE attempts = 1", sql) == 3)

            // The retries find each event applied: they complete without applying it again.
            try await sql.raw("DELETE FROM billing_fault_switch").run()
            clock.advance(by: .seconds(3))
            await application.drainInbox()
            #expect(try await Self.count("SELECT COUNT(*) AS n FROM kindred_queue_items", sql) == 0)
            #expect(try await Self.count("SELECT COUNT(*) AS n FROM kindred_billing_plans", sql) == 3)
            #expect(try await Self.count("SELECT COUNT(DISTINCT event_id) AS n FROM kindred_billing_plans", sql) == 3)
            #expect(try await Self.count("SELECT COUNT(*) AS n FROM kindred_billing_events", sql) == 3)
            #expect(try await Self.count("SELECT COUNT(*) AS n FROM kindred_realtime_events WHERE type = 'billing.entitlements'", sql) == 3)
            #expect(try await Self.count("SELECT COUNT(*) AS n FROM kindred_queue_dead_letters", sql) == 0)
        }
    }

    @Test("a lane recomputes each user once and publishes one realtime event: the latest entitlements", arguments: Backend.all)
    func onePublishPerUser(backend: Backend) async throws {
        let clock = TestClock(start: BillingFixtures.start)
        try await TestApplication.run(on: backend, clock: clock, billing: BillingFixtures.settings()) { application, client in
            let sql = application.database.sql
            let user = try await client.signUp("lane@example.com", app: "pulse").user.id
            for body in [
                BillingFixtures.revenueCat(id: "l1", type: "INITIAL_PURCHASE", user: user, expiresAt: Self.now + 30 * Self.day, eventAt: Self.now - 100),
                BillingFixtures.revenueCat(id: "l2", type: "RENEWAL", user: user, expiresAt: Self.now + 60 * Self.day, eventAt: Self.now),
            ] {
                #expect(try await client.revenueCatWebhook(body).status == .ok)
            }

            #expect(await application.platform.worker.processAvailable() == 2)
            let published = try await sql.select().column("data").from("kindred_realtime_events")
                .where("channel", .equal, "user:\(user)").where("type", .equal, "billing.entitlements").all()
            #expect(published.count == 1)
            #expect(try published.first?.decode(column: "data", as: String.self).contains(#""expiresAt":\#(Self.now + 60 * Self.day)"#) == true)
            #expect(try await application.subscription(of: user).latestExpiration == Self.now + 60 * Self.day)
            #expect(try await Self.count("SELECT COUNT(*) AS n FROM kindred_billing_plans", sql) == 2)
            #expect(try await Self.count("SELECT COUNT(*) AS n FROM kindred_queue_items", sql) == 0)
        }
    }

    /// A trigger that fails plan inserts of `eventID` while `billing_fault_switch` has a row.
    static func failPlanInserts(eventID: String, on sql: any SQLDatabase) async throws {
        try await installSwitch(on: sql)
        if sql.dialect.name == "postgresql" {
            try await sql.raw("""
                CREATE FUNCTION billing_poison() RETURNS trigger AS $$
                BEGIN
                    IF NEW.event_id = '\(unsafeRaw: eventID)' AND EXISTS (SELECT 1 FROM billing_fault_switch) THEN
                        RAISE EXCEPTION 'poisoned event';
                    END IF;
                    RETURN NEW;
                END $$ LANGUAGE plpgsql
                """).run()
            try await sql.raw("""
                CREATE TRIGGER billing_poison BEFORE INSERT ON kindred_billing_plans FOR EACH ROW EXECUTE FUNCTION billing_poison()
                """).run()
        } else {
            try await sql.raw("""
                CREATE TRIGGER billing_poison BEFORE INSERT ON kindred_billing_plans
                WHEN NEW.event_id = '\(unsafeRaw: eventID)' AND EXISTS (SELECT 1 FROM billing_fault_switch)
                BEGIN SELECT RAISE(ABORT, 'poisoned event'); END
                """).run()
        }
    }

    /// A trigger that fails every queue item delete while `billing_fault_switch` has a row.
    static func failQueueDeletes(on sql: any SQLDatabase) async throws {
        try await installSwitch(on: sql)
        if sql.dialect.name == "postgresql" {
            try await sql.raw("""
                CREATE FUNCTION queue_fault() RETURNS trigger AS $$
                BEGIN
                    IF EXISTS (SELECT 1 FROM billing_fault_switch) THEN RAISE EXCEPTION 'injected delete fault'; END IF;
                    RETURN OLD;
                END $$ LANGUAGE plpgsql
                """).run()
            try await sql.raw("""
                CREATE TRIGGER queue_fault BEFORE DELETE ON kindred_queue_items FOR EACH ROW EXECUTE FUNCTION queue_fault()
                """).run()
        } else {
            try await sql.raw("""
                CREATE TRIGGER queue_fault BEFORE DELETE ON kindred_queue_items
                WHEN EXISTS (SELECT 1 FROM billing_fault_switch)
                BEGIN SELECT RAISE(ABORT, 'injected delete fault'); END
                """).run()
        }
    }

    static func installSwitch(on sql: any SQLDatabase) async throws {
        try await sql.raw("CREATE TABLE billing_fault_switch (on_ INTEGER)").run()
        try await sql.raw("INSERT INTO billing_fault_switch VALUES (1)").run()
    }
}
