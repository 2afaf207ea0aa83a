#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Synchronization
import Testing

/// Crash consistency, CI-sized (`scripts/crash-test` is the long run): the real `kindred serve`
/// is killed with SIGKILL three times while threads sign up accounts and post RevenueCat
/// webhooks, and restarted on the same database each time. After every kill each acknowledged
/// write is in the database and nothing is half-applied; in the end every acknowledged event is
/// applied exactly once and every acknowledged account signs in.
@Suite(.serialized) struct CrashConsistencyLiveTests {
    static let auth = "Bearer rc-crash-test"
    static let environment = [
        "KINDRED_REVENUECAT_WEBHOOK_AUTH": auth,
        "KINDRED_REVENUECAT_MAX_EVENT_AGE_SECONDS": "0",
        "KINDRED_QUEUE_POLL_MILLISECONDS": "50",
        "KINDRED_BILLING_INBOX_MAX_ATTEMPTS": "1000",
        "KINDRED_BILLING_INBOX_RETRY_BASE_MS": "20",
        "KINDRED_BILLING_INBOX_RETRY_MAX_MS": "200",
        "KINDRED_BILLING_INBOX_LEASE_SECONDS": "2",
    ]
    static let kills = 3
    static let password = "crash-test-password"

    @Test("SIGKILL under load, 3 times: acknowledged writes survive, none half-applied, events applied once",
          arguments: Backend.all)
    func killsUnderLoad(backend: Backend) async throws {
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
                try await Self.scenario(server, sql: database.sql)
            } catch {
                let stopped = await server.stop()
                Issue.record("server logs:\n\(stopped.stderr.suffix(4000))")
                throw error
            }
            _ = await server.stop()
        }
    }

    static func scenario(_ server: LiveServer, sql: any SQLDatabase) async throws {
        let record = CrashLoadRecord()
        for round in 1...kills {
            let before = record.acknowledgedCount
            let control = CrashLoadControl()
            let workers = 4
            for worker in 0..<workers {
                let thread = Thread {
                    var n = 0
                    while !control.stop.load(ordering: .acquiring) {
                        n += 1
                        load(port: server.port, tag: "\(round)-\(worker)-\(n)", record: record)
                    }
                    control.finished.add(1, ordering: .releasing)
                }
                thread.start()
            }
            // The kill comes at a random moment once this round has had a write acknowledged (a
            // busy machine may take a while to answer the first one).
            let first = ContinuousClock.now + .seconds(15)
            while record.acknowledgedCount == before, ContinuousClock.now < first {
                try await Task.sleep(for: .milliseconds(10))
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 50...800)))
            let killed = await server.kill()
            #expect(killed.status != 0, "round \(round): the server was not killed")
            control.stop.store(true, ordering: .releasing)
            while control.finished.load(ordering: .acquiring) < workers { try await Task.sleep(for: .milliseconds(20)) }
            #expect(record.acknowledgedCount > before, "round \(round): no write was acknowledged before the kill")
            try await verifyStored(record, sql: sql, round: round)
            try await server.start()
        }

        // The inbox drains; every acknowledged event is applied exactly once.
        let deadline = ContinuousClock.now + .seconds(30)
        while try await count("SELECT COUNT(*) AS n FROM kindred_queue_items WHERE queue = 'billing.webhooks'", sql) > 0 {
            guard ContinuousClock.now < deadline else { Issue.record("the inbox did not drain"); break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let snapshot = record.snapshot()
        let outcomes = try await pairs("SELECT event_id AS a, outcome AS b FROM kindred_billing_events", sql)
        let plans = try await sql.raw("SELECT event_id, COUNT(*) AS n FROM kindred_billing_plans GROUP BY event_id").all()
        var planCounts: [String: Int] = [:]
        for row in plans { planCounts[try row.decode(column: "event_id", as: String.self)] = try row.decode(column: "n", as: Int.self) }
        for event in snapshot.events {
            #expect(outcomes[event] == "applied", "acknowledged event \(event): \(outcomes[event] ?? "missing")")
            #expect(planCounts[event] == 1, "acknowledged event \(event): \(planCounts[event] ?? 0) plan entries")
        }
        #expect(planCounts.values.allSatisfy { $0 == 1 }, "an event applied more than once")
        #expect(try await count("SELECT COUNT(*) AS n FROM kindred_queue_dead_letters", sql) == 0)
        // Every acknowledged account signs in, as itself.
        for (email, user) in snapshot.signups {
            let answer = try request(port: server.port, "POST", "/v1/auth/login",
                                     json: #"{"email":"\#(email)","password":"\#(password)"}"#)
            #expect(answer?.status == 200 && (answer?.json?["user"] as? [String: Any])?["id"] as? String == user,
                    "acknowledged account \(email) does not sign in: \(answer?.status ?? 0)")
        }
    }

    /// One sign-up, then a webhook naming the new account; each acknowledged answer recorded.
    static func load(port: Int, tag: String, record: CrashLoadRecord) {
        let email = "crash-\(tag)@crash.test"
        guard let signup = try? request(port: port, "POST", "/v1/auth/signup",
                                        json: #"{"email":"\#(email)","password":"\#(password)"}"#),
              signup.status == 201,
              let user = (signup.json?["user"] as? [String: Any])?["id"] as? String
        else { return }
        record.acknowledge(signup: email, user: user)
        let id = "crash-\(tag)"
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let event = #"{"api_version":"1.0","event":{"id":"\#(id)","type":"INITIAL_PURCHASE","app_user_id":"\#(user)","original_transaction_id":"otx-\#(id)","product_id":"pc_1m","environment":"PRODUCTION","event_timestamp_ms":\#(now),"expiration_at_ms":\#(now + 2_592_000_000)}}"#
        guard let answer = try? request(port: port, "POST", "/v1/webhooks/revenuecat", json: event, authorization: auth),
              answer.status == 200, answer.body == #"{"duplicate":false,"received":true}"#
        else { return }
        record.acknowledge(event: id)
    }

    /// After a kill, before the restart: every acknowledged write is stored, nothing half-applied.
    static func verifyStored(_ record: CrashLoadRecord, sql: any SQLDatabase, round: Int) async throws {
        let snapshot = record.snapshot()
        let credentials = try await pairs("SELECT subject AS a, user_id AS b FROM kindred_credentials WHERE provider = 'password'", sql)
        let users = Set(try await pairs("SELECT id AS a, app AS b FROM kindred_users", sql).keys)
        let sessions = Set(try await pairs("SELECT DISTINCT user_id AS a, user_id AS b FROM kindred_sessions", sql).keys)
        let refresh = Set(try await pairs("SELECT DISTINCT user_id AS a, user_id AS b FROM kindred_refresh_tokens", sql).keys)
        for (email, user) in snapshot.signups {
            #expect(credentials[email] == user, "round \(round): acknowledged sign-up \(email) missing")
        }
        // An account of the load exists with its credential, session and refresh token, or not at all.
        let owners = Set(credentials.values)
        for user in users {
            #expect(owners.contains(user) && sessions.contains(user) && refresh.contains(user),
                    "round \(round): account \(user) half-applied")
        }
        let received = Set(try await pairs("SELECT dedupe_key AS a, queue AS b FROM kindred_queue_dedupe_keys", sql).keys)
        let applied = Set(try await pairs("SELECT event_id AS a, outcome AS b FROM kindred_billing_events", sql).keys)
        for event in snapshot.events {
            #expect(received.contains("revenuecat:\(event)") || applied.contains(event),
                    "round \(round): acknowledged webhook \(event) missing")
        }
        #expect(try await count("""
            SELECT COUNT(*) AS n FROM kindred_billing_plans p
            WHERE NOT EXISTS (SELECT 1 FROM kindred_billing_events e WHERE e.event_id = p.event_id)
            """, sql) == 0, "round \(round): a plan entry without its event record")
    }

    static func count(_ query: String, _ sql: any SQLDatabase) async throws -> Int {
        try await sql.raw(SQLQueryString(query)).first()?.decode(column: "n", as: Int.self) ?? -1
    }

    /// A two-column query (`a`, `b`) as a dictionary.
    static func pairs(_ query: String, _ sql: any SQLDatabase) async throws -> [String: String] {
        var result: [String: String] = [:]
        for row in try await sql.raw(SQLQueryString(query)).all() {
            result[try row.decode(column: "a", as: String.self)] = try row.decode(column: "b", as: String.self)
        }
        return result
    }

    /// One request on its own connection (no SIGPIPE when the server dies mid-way).
    /// - Returns: the status and body, or `nil` when the server closed without a whole answer.
    static func request(
        port: Int, _ method: String, _ path: String, json: String, authorization: String? = nil
    ) throws -> (status: Int, body: String, json: [String: Any]?)? {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Kindred-App: pulse\r\n"
        head += "Content-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\n"
        if let authorization { head += "Authorization: \(authorization)\r\n" }
        let connection = try LoopbackHTTP.Connection(port: port, readTimeout: 10)
        try connection.write(head + "\r\n" + json)
        let answer = try connection.readUntilClosed()
        let parts = answer.split(separator: "\r\n\r\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let line = parts[0].split(separator: "\r\n").first,
              line.hasPrefix("HTTP/1.1 "), let status = Int(line.dropFirst(9).prefix(3))
        else { return nil }
        let body = String(parts[1])
        if let length = parts[0].split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
           Int(length.dropFirst(15).trimmingCharacters(in: .whitespaces)) != body.utf8.count {
            return nil  // cut off by the kill
        }
        let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        return (status, body, object)
    }
}

/// One round's load threads: when to stop, and how many have stopped.
final class CrashLoadControl: Sendable {
    /// Set after the kill: the threads finish their request and stop.
    let stop = Atomic<Bool>(false)
    /// The threads that have stopped.
    let finished = Atomic<Int>(0)
}

/// The writes the server acknowledged, shared by the load threads.
final class CrashLoadRecord: Sendable {
    private let state = Mutex<(signups: [String: String], events: [String], count: Int)>(([:], [], 0))

    /// How many writes were acknowledged so far.
    var acknowledgedCount: Int { state.withLock { $0.count } }

    /// Records an acknowledged sign-up (e-mail → account id).
    func acknowledge(signup email: String, user: String) {
        state.withLock { $0.signups[email] = user; $0.count += 1 }
    }

    /// Records an acknowledged webhook event id.
    func acknowledge(event id: String) {
        state.withLock { $0.events.append(id); $0.count += 1 }
    }

    /// Everything acknowledged so far.
    func snapshot() -> (signups: [String: String], events: [String]) {
        state.withLock { ($0.signups, $0.events) }
    }
}
