@testable import AdminConsole
@testable import BillingServer
@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// The inbox under faults, with the real `kindred serve`: the database refuses the plan writes
/// (an injected trigger) while events are applied, the process is killed (SIGKILL) mid-way and
/// restarted without the fault; every acknowledged event ends up applied exactly once.
@Suite(.serialized) struct BillingFaultLiveTests {
    static let auth = "Bearer rc-fault-test"
    static let environment = [
        "KINDRED_REVENUECAT_WEBHOOK_AUTH": auth,
        // The events are dated in 2030 (expirations ahead of any clock); the replay bound is
        // tested on its own (RevenueCatWebhookAuthTests).
        "KINDRED_REVENUECAT_MAX_EVENT_AGE_SECONDS": "0",
        "KINDRED_QUEUE_POLL_MILLISECONDS": "50",
        "KINDRED_BILLING_INBOX_MAX_ATTEMPTS": "1000",
        "KINDRED_BILLING_INBOX_RETRY_BASE_MS": "20",
        "KINDRED_BILLING_INBOX_RETRY_MAX_MS": "200",
        "KINDRED_BILLING_INBOX_LEASE_SECONDS": "2",
    ]

    @Test("injected DB failure + SIGKILL + restart: every acknowledged event applied exactly once", arguments: Backend.all)
    func faults(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let url: String
            switch database.configuration.url {
            case .postgres(let pg):
                url = "postgres://\(pg.username)\(pg.password.map { ":\($0)" } ?? "")@\(pg.host):\(pg.port)/\(pg.database)"
            case .sqlite(let path):
                url = "sqlite:\(path)"
            default:
                return
            }
            let server = try await LiveServer(databaseURL: url, environment: Self.environment)
            do {
                try await Self.scenario(server, database: database)
            } catch {
                let stopped = await server.stop()
                Issue.record("server logs:\n\(stopped.stderr.suffix(4000))")
                throw error
            }
            _ = await server.stop()
        }
    }

    static func scenario(_ server: LiveServer, database: Database) async throws {
        let sql = database.sql
        var users: [String] = []
        for _ in 0..<4 {
            let answer = try send(port: server.port, "POST", "/v1/auth/anonymous", app: "pulse")
            let body = try #require(answer.split(separator: "\r\n\r\n", maxSplits: 1).last)
            let session = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
            users.append(try #require((session["user"] as? [String: Any])?["id"] as? String))
        }
        try await installFault(on: sql)

        // 40 events (10 per user, each a renewal with a new expiration), each acknowledged,
        // then every one delivered again (provider retries): acknowledged as duplicates.
        var acknowledged: [String] = []
        let base: Int64 = 1_900_000_000
        for index in 0..<40 {
            let user = users[index % users.count]
            let id = "fault-\(index)"
            let event: [String: Any] = [
                "id": id, "type": index < 4 ? "INITIAL_PURCHASE" : "RENEWAL", "app_user_id": user,
                "original_transaction_id": "otx-\(user)", "product_id": "pc_1m", "environment": "PRODUCTION",
                "event_timestamp_ms": (base + Int64(index)) * 1000, "expiration_at_ms": (base + 86_400 + Int64(index)) * 1000,
            ]
            let body = String(decoding: try JSONSerialization.data(withJSONObject: ["api_version": "1.0", "event": event]), as: UTF8.self)
            let answer = try send(port: server.port, "POST", "/v1/webhooks/revenuecat", json: body, authorization: auth)
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
            #expect(answer.hasSuffix(#"{"duplicate":false,"received":true}"#))
            acknowledged.append(id)
            if index % 10 == 9 {
                let again = try send(port: server.port, "POST", "/v1/webhooks/revenuecat", json: body, authorization: auth)
                #expect(again.hasSuffix(#"{"duplicate":true,"received":true}"#))
            }
        }
        // The worker keeps failing on the injected fault: nothing is applied, nothing lost.
        try await Task.sleep(for: .milliseconds(1500))
        #expect(try await count("SELECT COUNT(*) AS n FROM kindred_billing_events", sql) == 0)
        #expect(try await count("SELECT COUNT(*) AS n FROM kindred_queue_items WHERE queue = 'billing.webhooks'", sql) == 40)
        #expect(try await count("SELECT COUNT(*) AS n FROM kindred_queue_items WHERE attempts > 1", sql) > 0)

        let killed = await server.kill()
        #expect(killed.status != 0)
        try await sql.raw("DELETE FROM billing_fault_switch").run()
        try await server.start()

        let deadline = ContinuousClock.now + .seconds(60)
        while try await count("SELECT COUNT(*) AS n FROM kindred_queue_items WHERE queue = 'billing.webhooks'", sql) > 0 {
            guard ContinuousClock.now < deadline else { Issue.record("the inbox did not drain"); break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let applied = try await sql.raw("SELECT event_id, outcome FROM kindred_billing_events ORDER BY event_id").all()
        #expect(try applied.map { try $0.decode(column: "event_id", as: String.self) } == acknowledged.sorted())
        #expect(try applied.allSatisfy { try $0.decode(column: "outcome", as: String.self) == "applied" })
        let perEvent = try await sql.raw("SELECT event_id, COUNT(*) AS n FROM kindred_billing_plans GROUP BY event_id ORDER BY event_id").all()
        #expect(perEvent.count == 40)
        #expect(try perEvent.allSatisfy { try $0.decode(column: "n", as: Int.self) == 1 })
        #expect(try await count("SELECT COUNT(*) AS n FROM kindred_queue_dead_letters", sql) == 0)
    }

    /// A trigger that fails every plan insert while `billing_fault_switch` has a row.
    static func installFault(on sql: any SQLDatabase) async throws {
        try await sql.raw("CREATE TABLE billing_fault_switch (on_ INTEGER)").run()
        try await sql.raw("INSERT INTO billing_fault_switch VALUES (1)").run()
        if sql.dialect.name == "postgresql" {
            try await sql.raw("""
                CREATE FUNCTION billing_fault() RETURNS trigger AS $$
                BEGIN
                    IF EXISTS (SELECT 1 FROM billing_fault_switch) THEN RAISE EXCEPTION 'injected fault'; END IF;
                    RETURN NEW;
                END $$ LANGUAGE plpgsql
                """).run()
            try await sql.raw("""
                CREATE TRIGGER billing_fault BEFORE INSERT ON kindred_billing_plans
                FOR EACH ROW EXECUTE FUNCTION billing_fault()
                """).run()
        } else {
            try await sql.raw("""
                CREATE TRIGGER billing_fault BEFORE INSERT ON kindred_billing_plans
                WHEN EXISTS (SELECT 1 FROM billing_fault_switch)
                BEGIN SELECT RAISE(ABORT, 'injected fault'); END
                """).run()
        }
    }

    static func count(_ query: String, _ sql: any SQLDatabase) async throws -> Int {
        try await sql.raw(SQLQueryString(query)).first()?.decode(column: "n", as: Int.self) ?? -1
    }

    static func send(
        port: Int, _ method: String, _ path: String, app: String? = nil, json: String = "", authorization: String? = nil
    ) throws -> String {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(json.utf8.count)\r\n"
        if let app { head += "X-Kindred-App: \(app)\r\n" }
        if let authorization { head += "Authorization: \(authorization)\r\n" }
        if !json.isEmpty { head += "Content-Type: application/json\r\n" }
        return try LoopbackHTTP.exchange(port: port, head: head + "\r\n", body: json)
    }
}
