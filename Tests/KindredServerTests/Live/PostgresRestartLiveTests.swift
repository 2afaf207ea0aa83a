import Foundation
import KindredServerTestSupport
import KindredStore
import KindredTestSupport
import SQLKit
import Synchronization
import Testing

/// PostgreSQL stopped and started under traffic: two `kindred serve` replicas on a cluster of
/// the test's own; while `pg_ctl stop -m fast` has it down every request is answered 503
/// `unavailable` with `Retry-After` (not 500, not a hang); after `pg_ctl start` both recover by
/// themselves, every acknowledged write is there, a realtime subscriber on the other replica gets
/// the events written after the restart (LISTEN reconnect and resync) and a new one resumes from
/// its sequence number, and the scheduler's leadership comes back.
@Suite(.serialized) struct PostgresRestartLiveTests {
    /// Runs when the PostgreSQL binaries are installed, and always under CI (where missing ones fail).
    static var shouldRun: Bool { PrivatePostgresCluster.binaries != nil || TestDatabases.isCI }
    static let environment = ["KINDRED_JOBS_POLL_SECONDS": "1"]
    static let password = "restart-test-password"
    static let leads = "now leads the job scheduler"

    @Test("pg_ctl stop under traffic: 503 unavailable with Retry-After; after start: recovered, nothing lost, realtime resumed, one leader",
          .enabled(if: PostgresRestartLiveTests.shouldRun, "no PostgreSQL server binaries under /usr/lib/postgresql (CI=true makes this a failure)"))
    func restartUnderTraffic() async throws {
        let cluster = try PrivatePostgresCluster()
        let writer = try await LiveServer(databaseURL: cluster.url, environment: Self.environment)
        let reader: LiveServer
        do {
            reader = try await LiveServer(databaseURL: cluster.url, environment: Self.environment)
        } catch {
            _ = await writer.stop()
            throw error
        }
        do {
            try await Self.scenario(cluster: cluster, writer: writer, reader: reader)
        } catch {
            let first = await writer.stop(), second = await reader.stop()
            Issue.record("writer log:\n\(first.stderr.suffix(3000))\nreader log:\n\(second.stderr.suffix(3000))")
            throw error
        }
        let first = await writer.stop(), second = await reader.stop()
        #expect(first.status == 0, "writer:\n\(first.stderr.suffix(3000))")
        #expect(second.status == 0, "reader:\n\(second.stderr.suffix(3000))")
        try cluster.stop()
    }

    static func scenario(cluster: PrivatePostgresCluster, writer: LiveServer, reader: LiveServer) async throws {
        let servers = [writer, reader]
        #expect(try await waitFor(.seconds(15)) { await leadLines(servers) >= 1 }, "no replica leads the scheduler")
        #expect(try await schedulerLocks(cluster.url) == 1)
        let ledBefore = await leadLines(servers)

        let signUp = try #require(try request(port: writer.port, "POST", "/v1/auth/signup",
                                              json: #"{"email":"ada@restart.test","password":"\#(password)"}"#))
        let token = try #require(signUp.json?["accessToken"] as? String)
        let user = try #require((signUp.json?["user"] as? [String: Any])?["id"] as? String)
        let channel = "user:\(user)"

        // Sign-ups on both replicas, from two threads, until the end.
        let traffic = RestartTraffic()
        for worker in 0..<2 {
            Thread {
                var n = 0
                while !traffic.stop.load(ordering: .acquiring) {
                    n += 1
                    let port = servers[(n + worker) % 2].port
                    traffic.signUp(port: port, email: "t\(worker)-\(n)@restart.test")
                    Thread.sleep(forTimeInterval: 0.01)
                }
                traffic.finished.add(1, ordering: .releasing)
            }.start()
        }

        // The subscriber is on the reader; the writes go through the writer (so events cross by NOTIFY).
        try await RealtimeProbe.connect(port: reader.port, app: "pulse", token: token) { probe in
            #expect(try await probe.subscribe(channel) == #"{"op":"subscribed","channel":"\#(channel)","seq":0}"#)
            for n in 1...3 {
                #expect(try rename(writer.port, token, "before-\(n)")?.status == 200)
                try expectEvent(try await probe.next(), channel: channel, seq: n, name: "before-\(n)")
            }
            #expect(try await waitFor(.seconds(10)) { traffic.counts().acknowledged >= 5 }, "the traffic got nothing acknowledged")

            try cluster.stop()
            for server in servers {
                let answer = try #require(try rename(server.port, token, "lost"), "no answer while PostgreSQL is down")
                expectUnavailable(answer, "PATCH /v1/me on :\(server.port)")
                let ready = try #require(try request(port: server.port, "GET", "/ready"))
                #expect(ready.status == 503 && ready.code == "not_ready", "/ready: \(ready.status) \(ready.body)")
            }
            // Long enough for the scheduler and the LISTEN connection to notice (they tick every second).
            try await Task.sleep(for: .seconds(2))

            try cluster.start()
            traffic.restarted.store(true, ordering: .releasing)
            // The writer recovers by itself; until then every answer is 503 unavailable.
            var renamed: Answer?
            let deadline = ContinuousClock.now + .seconds(20)
            while ContinuousClock.now < deadline {
                let answer = try #require(try rename(writer.port, token, "after-1"))
                if answer.status == 200 { renamed = answer; break }
                expectUnavailable(answer, "PATCH /v1/me while reconnecting")
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(renamed != nil, "the writer did not recover within 20 s")
            #expect(try rename(writer.port, token, "after-2")?.status == 200)
            // The subscription that lived through the outage gets what was written after it.
            try expectEvent(try await probe.next(timeout: .seconds(15)), channel: channel, seq: 4, name: "after-1")
            try expectEvent(try await probe.next(timeout: .seconds(15)), channel: channel, seq: 5, name: "after-2")
        }

        // A client that reconnects resumes from its sequence number.
        try await RealtimeProbe.connect(port: reader.port, app: "pulse", token: token) { probe in
            let subscribed = try await probe.subscribe(channel, after: 3)
            #expect(subscribed == #"{"op":"subscribed","channel":"\#(channel)","seq":5}"#)
            try expectEvent(try await probe.next(), channel: channel, seq: 4, name: "after-1")
            try expectEvent(try await probe.next(), channel: channel, seq: 5, name: "after-2")
        }
        let me = try #require(try request(port: reader.port, "GET", "/v1/me", token: token))
        #expect(me.json?["displayName"] as? String == "after-2", "GET /v1/me: \(me.body)")

        // Traffic after the restart is acknowledged again; then it stops.
        #expect(try await waitFor(.seconds(10)) { traffic.counts().afterRestart >= 5 }, "no sign-up acknowledged after the restart")
        traffic.stop.store(true, ordering: .releasing)
        while traffic.finished.load(ordering: .acquiring) < 2 { try await Task.sleep(for: .milliseconds(20)) }
        let counts = traffic.counts()
        #expect(counts.unavailable > 0, "no request met the outage")
        #expect(traffic.unexpected() == [], "answers other than 201 or 503 unavailable")

        // Every acknowledged sign-up is stored, and signs in.
        let acknowledged = traffic.acknowledged()
        let credentials = try await withDatabase(cluster.url) { sql in
            var owners: [String: String] = [:]
            for row in try await sql.raw("SELECT subject, user_id FROM kindred_credentials WHERE provider = 'password'").all() {
                owners[try row.decode(column: "subject", as: String.self)] = try row.decode(column: "user_id", as: String.self)
            }
            return owners
        }
        for (email, id) in acknowledged {
            #expect(credentials[email] == id, "acknowledged sign-up \(email) missing")
        }
        for (n, (email, id)) in acknowledged.sorted(by: { $0.key < $1.key }).prefix(20).enumerated() {
            let login = try request(port: servers[n % 2].port, "POST", "/v1/auth/login",
                                    json: #"{"email":"\#(email)","password":"\#(password)"}"#)
            #expect(login?.status == 200 && (login?.json?["user"] as? [String: Any])?["id"] as? String == id,
                    "\(email) does not sign in: \(login?.status ?? 0)")
        }

        // Leadership was lost with the lock's session, and one replica leads again.
        #expect(try await waitFor(.seconds(15)) { await leadLines(servers) > ledBefore }, "no replica leads again")
        #expect(try await schedulerLocks(cluster.url) == 1)
    }
}

extension PostgresRestartLiveTests {
    /// One answer: status, headers (lower-cased names), body and its JSON object, if any.
    struct Answer {
        let status: Int
        let headers: [String: String]
        let body: String
        var json: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] }
        var code: String? { (json?["error"] as? [String: Any])?["code"] as? String }
    }

    /// One request for the pulse app on its own connection; a server that does not answer within
    /// 10 s fails it (`ETIMEDOUT`).
    /// - Returns: `nil` when the connection closed without a whole answer.
    static func request(port: Int, _ method: String, _ path: String, token: String? = nil, json: String? = nil) throws -> Answer? {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Kindred-App: pulse\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        if let json { head += "Content-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\n" }
        let connection = try LoopbackHTTP.Connection(port: port, readTimeout: 10)
        try connection.write(head + "\r\n" + (json ?? ""))
        let parts = try connection.readUntilClosed().split(separator: "\r\n\r\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let lines = parts[0].split(separator: "\r\n")
        guard let line = lines.first, line.hasPrefix("HTTP/1.1 "), let status = Int(line.dropFirst(9).prefix(3)) else { return nil }
        var headers: [String: String] = [:]
        for field in lines.dropFirst() {
            guard let colon = field.firstIndex(of: ":") else { continue }
            headers[field[..<colon].lowercased()] = field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Answer(status: status, headers: headers, body: String(parts[1]))
    }

    /// `PATCH /v1/me` with a new display name.
    static func rename(_ port: Int, _ token: String, _ name: String) throws -> Answer? {
        try request(port: port, "PATCH", "/v1/me", token: token, json: #"{"displayName":"\#(name)"}"#)
    }

    static func expectUnavailable(_ answer: Answer, _ what: String) {
        #expect(answer.status == 503 && answer.code == "unavailable" && answer.headers["retry-after"] == "5",
                "\(what): \(answer.status) \(answer.headers) \(answer.body)")
    }

    /// Checks a `profile.updated` event frame.
    static func expectEvent(_ frame: String, channel: String, seq: Int, name: String) throws {
        #expect(frame.hasPrefix(#"{"op":"event","channel":"\#(channel)","seq":\#(seq),"type":"profile.updated","data":{"#)
                && frame.contains(#""displayName":"\#(name)""#), "expected seq \(seq) (\(name)): \(frame)")
    }

    /// How many times the replicas logged taking the scheduler's leadership.
    static func leadLines(_ servers: [LiveServer]) async -> Int {
        var total = 0
        for server in servers { total += await server.log().components(separatedBy: leads).count - 1 }
        return total
    }

    /// Polls `condition` every 100 ms. - Returns: whether it held within `timeout`.
    static func waitFor(_ timeout: Duration, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await condition()
    }

    /// Runs `body` on a short-lived connection pool of the cluster.
    static func withDatabase<T>(_ url: String, _ body: (any SQLDatabase) async throws -> T) async throws -> T {
        let database = try await Database.open(DatabaseConfiguration(url: try DatabaseURL(parsing: url), maxConnections: 1))
        do {
            let result = try await body(database.sql)
            await database.close()
            return result
        } catch {
            await database.close()
            throw error
        }
    }

    /// Granted scheduler advisory locks (the key "kjobs"; see `SchedulerLeadershipLiveTests`).
    static func schedulerLocks(_ url: String) async throws -> Int {
        try await withDatabase(url) { sql in
            try await sql.raw("""
                SELECT count(*) AS n FROM pg_locks
                WHERE locktype = 'advisory' AND granted AND classid::bigint = 107 AND objid::bigint = 1785684595
                """).first()?.decode(column: "n", as: Int.self) ?? 0
        }
    }
}

/// The sign-up traffic of the restart test: what was acknowledged, and any answer that should not be.
final class RestartTraffic: Sendable {
    /// Set when the threads should stop.
    let stop = Atomic<Bool>(false)
    /// The threads that have stopped.
    let finished = Atomic<Int>(0)
    /// Set once PostgreSQL was started again.
    let restarted = Atomic<Bool>(false)
    private let state = Mutex<(acknowledged: [String: String], afterRestart: Int, unavailable: Int, unexpected: [String])>(([:], 0, 0, []))

    /// Signs up `email` through `port` and records the outcome.
    func signUp(port: Int, email: String) {
        let body = #"{"email":"\#(email)","password":"\#(PostgresRestartLiveTests.password)"}"#
        do {
            guard let answer = try PostgresRestartLiveTests.request(port: port, "POST", "/v1/auth/signup", json: body) else {
                record(unexpected: "\(email): the connection closed without an answer")
                return
            }
            if answer.status == 201, let id = (answer.json?["user"] as? [String: Any])?["id"] as? String {
                let after = restarted.load(ordering: .acquiring)
                state.withLock { $0.acknowledged[email] = id; if after { $0.afterRestart += 1 } }
                return
            }
            if answer.status == 503, answer.code == "unavailable", answer.headers["retry-after"] == "5" {
                state.withLock { $0.unavailable += 1 }
                return
            }
            record(unexpected: "\(email): \(answer.status) \(answer.body.prefix(200))")
        } catch {
            record(unexpected: "\(email): \(error)")
        }
    }

    private func record(unexpected: String) {
        state.withLock { $0.unexpected.append(unexpected) }
    }

    func counts() -> (acknowledged: Int, afterRestart: Int, unavailable: Int) {
        state.withLock { ($0.acknowledged.count, $0.afterRestart, $0.unavailable) }
    }

    func acknowledged() -> [String: String] { state.withLock { $0.acknowledged } }

    func unexpected() -> [String] { state.withLock { $0.unexpected } }
}
