import Foundation
import KindredTestSupport
import Testing

/// Issue 21, item 3, against the real `kindred serve`: slow clients cannot hold the server's
/// connections. Timeouts are shortened through the settings so the test takes seconds.
@Suite(.serialized) struct ConnectionLimitsLiveTests {
    /// The timeout every deadline gets here (`server.*TimeoutSeconds`).
    static let timeout = Duration.seconds(8)
    /// How late after its deadline a connection may be closed (a loaded machine, the poll interval).
    static let slack = Duration.milliseconds(3_000)

    @Test("2,000 idle, slow-head and slow-body connections neither stop /health nor stay open past their timeout")
    func slowClientsAreClosedAtTheirTimeout() async throws {
        SlowClients.raiseOpenFilesLimit(to: 8_192)
        try await LiveServer.running(environment: [
            "KINDRED_SERVER_IDLE_TIMEOUT_SECONDS": "8",
            "KINDRED_SERVER_REQUEST_HEAD_TIMEOUT_SECONDS": "8",
            "KINDRED_SERVER_REQUEST_BODY_TIMEOUT_SECONDS": "8",
        ]) { server in
            let port = server.port
            let attacker = SlowClients()
            try await SlowClients.offPool {
                try attacker.open(1_000, .idle, port: port)
                try attacker.open(500, .slowHead, port: port)
                try attacker.open(500, .slowBody, port: port)
            }
            // /health answers at once while all of them are open.
            let started = ContinuousClock.now
            let health = try await SlowClients.offPool {
                try LoopbackHTTP.exchange(port: port, head: "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            }
            let answeredIn = ContinuousClock.now - started
            #expect(health.hasPrefix("HTTP/1.1 200"))
            #expect(answeredIn < .seconds(1), "GET /health took \(answeredIn)")
            let openAtHealth = try await SlowClients.offPool { () -> Int in
                attacker.watch(for: .zero)
                return attacker.openCount
            }
            #expect(openAtHealth >= 1_500, "only \(openAtHealth) of 2000 were still open when /health answered")

            // Trickle a byte every 500 ms on the slow ones until the server has closed everything.
            guard let lastOpened = attacker.clients.last?.openedAt else {
                Issue.record("no connection was opened")
                return
            }
            try await SlowClients.offPool {
                while attacker.openCount > 0, ContinuousClock.now < lastOpened + Self.timeout + Self.slack + .seconds(1) {
                    attacker.trickle()
                    attacker.watch(for: .milliseconds(500))
                }
            }
            let clients = attacker.clients
            #expect(clients.count == 2_000)
            #expect(attacker.openCount == 0, "\(attacker.openCount) connections were still open")
            var early = 0
            var late = 0
            for client in clients {
                guard let closedAt = client.closedAt else { continue }
                let lifetime = closedAt - client.openedAt
                if lifetime < Self.timeout - .milliseconds(100) { early += 1 }
                if lifetime > Self.timeout + Self.slack { late += 1 }
            }
            #expect(early == 0, "\(early) connections were closed before their timeout")
            #expect(late == 0, "\(late) connections were closed more than \(Self.slack) after their timeout")
            let expected408 = #"{"error":{"code":"request_timeout","message":"the request head did not arrive within 8 s"}}"#
            #expect(clients.filter { $0.kind == .slowHead }.allSatisfy {
                String(decoding: $0.received, as: UTF8.self).hasPrefix("HTTP/1.1 408 Request Timeout\r\n")
                    && String(decoding: $0.received, as: UTF8.self).hasSuffix(expected408)
            })
            // Idle clients read nothing; a slow body may be answered with a 4xx (the request's body
            // stream ends with an error when its deadline closes it) before the close, never a 2xx.
            let unexpected = clients.filter { client in
                switch client.kind {
                case .slowHead: false
                case .slowBody: !client.received.isEmpty && !String(decoding: client.received, as: UTF8.self).hasPrefix("HTTP/1.1 4")
                default: !client.received.isEmpty
                }
            }
            #expect(unexpected.isEmpty, "\(unexpected.count) idle or slow-body clients read: \(unexpected.prefix(2).map { String(decoding: $0.received.prefix(200), as: UTF8.self) })")
            attacker.closeAll()

            let after = try LoopbackHTTP.exchange(port: port, head: "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(after.hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test("Beyond server.maxConnections a new connection gets 503 too_many_connections and Connection: close")
    func connectionsBeyondTheCapAreRefused() async throws {
        try await LiveServer.running(environment: ["KINDRED_SERVER_MAX_CONNECTIONS": "20"]) { server in
            let port = server.port
            let holders = SlowClients()
            try await SlowClients.offPool { try holders.open(20, .idle, port: port) }
            // A connect() returns once the kernel queued the connection; give the server a moment
            // to accept (and count) all 20 before the 21st arrives.
            try await Task.sleep(for: .seconds(1))
            let refused = try await SlowClients.offPool {
                try LoopbackHTTP.exchange(port: port, head: "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            }
            let body = #"{"error":{"code":"too_many_connections","message":"the server has too many open connections; retry shortly"}}"#
            #expect(refused == "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"
                + "Content-Length: \(body.utf8.count)\r\nRetry-After: 1\r\nConnection: close\r\n\r\n" + body)
            // The holders were not disturbed; once they go, connections are admitted again.
            holders.watch(for: .zero)
            #expect(holders.openCount == 20)
            holders.closeAll()
            var answer = ""
            for _ in 0..<50 where !answer.hasPrefix("HTTP/1.1 200") {
                try await Task.sleep(for: .milliseconds(50))
                answer = (try? LoopbackHTTP.exchange(
                    port: port, head: "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                )) ?? ""
            }
            #expect(answer.hasPrefix("HTTP/1.1 200"))
        }
    }
}
