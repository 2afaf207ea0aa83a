import Foundation
import KindredTestSupport
import Testing

/// `/metrics` and `/ready` through a real socket (issue 21, item 8): local clients read them,
/// a remote client (here: relayed by a trusted proxy on loopback with its `X-Forwarded-For`)
/// needs the operations token, or is refused outright when none is configured; `/health`
/// answers everyone.
@Suite(.serialized) struct OperationsAccessLiveTests {
    static let token = "0123456789abcdef0123456789abcdef-operations"

    /// The status line's code and the whole response of `GET path` with `headers`.
    func get(_ server: LiveServer, _ path: String, _ headers: [String] = []) throws -> (status: Int, text: String) {
        let head = (["GET \(path) HTTP/1.1", "Host: 127.0.0.1", "Connection: close"] + headers).joined(separator: "\r\n") + "\r\n\r\n"
        let text = try LoopbackHTTP.exchange(port: server.port, head: head)
        let status = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, text)
    }

    @Test(.timeLimit(.minutes(2)))
    func remoteClientsNeedTheTokenLocalOnesDoNot() async throws {
        let remote = "X-Forwarded-For: 198.51.100.7"
        let server = try await LiveServer(environment: ["KINDRED_TRUSTED_PROXIES": "127.0.0.1/32", "KINDRED_OPERATIONS_TOKEN": Self.token])
        defer { Task { _ = await server.stop() } }
        for path in ["/metrics", "/ready"] {
            #expect(try get(server, path).status == 200, "local \(path)")
            let bare = try get(server, path, [remote])
            #expect(bare.status == 401 && bare.text.contains("operations_token_required"), "\(bare.text)")
            #expect(try get(server, path, [remote, "Authorization: Bearer wrong-token"]).status == 401)
            #expect(try get(server, path, [remote, "Authorization: Bearer \(Self.token)"]).status == 200)
        }
        #expect(try get(server, "/metrics", [remote, "Authorization: Bearer \(Self.token)"]).text.contains("kindred_http_requests_total"))
        #expect(try get(server, "/health", [remote]).status == 200)
        _ = await server.stop()
    }

    @Test(.timeLimit(.minutes(2)))
    func withoutATokenOnlyThisMachineReads() async throws {
        let server = try await LiveServer(environment: ["KINDRED_TRUSTED_PROXIES": "127.0.0.1/32"])
        let refused = try get(server, "/metrics", ["X-Forwarded-For: 198.51.100.7", "Authorization: Bearer \(Self.token)"])
        #expect(refused.status == 403 && refused.text.contains("operations_forbidden"), "\(refused.text)")
        #expect(try get(server, "/ready", ["X-Forwarded-For: 2001:db8::7"]).status == 403)
        #expect(try get(server, "/ready").status == 200)
        #expect(try get(server, "/health", ["X-Forwarded-For: 198.51.100.7"]).status == 200)
        #expect(await server.stop().status == 0)
    }
}
