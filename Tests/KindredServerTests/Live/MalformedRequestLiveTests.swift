import Foundation
import KindredTestSupport
import Testing

/// A request the HTTP decoder refuses (here a NUL byte in a header value, which schemathesis's
/// start-up probe sends) is answered `400 bad_request` at once and the connection closed. Before,
/// nothing answered it: the connection waited for the head deadline's `408 request_timeout`
/// (10 s) and the server logged an error from the WebSocket upgrade handler.
@Suite struct MalformedRequestLiveTests {
    @Test(.timeLimit(.minutes(1)))
    func aHeaderTheDecoderRefusesIsAnswered400AtOnce() async throws {
        _ = try await LiveServer.running { server in
            let port = server.port
            let started = ContinuousClock.now
            let answer = try LoopbackHTTP.exchange(
                port: port, head: "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Probe: a\u{0}b\r\nConnection: close\r\n\r\n"
            )
            let took = ContinuousClock.now - started
            #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request"), "\(answer)")
            #expect(answer.contains(#""code":"bad_request""#), "\(answer)")
            #expect(took < .seconds(3), "answered after \(took)")
            // The server goes on serving.
            let health = try LoopbackHTTP.exchange(port: port, head: "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(health.hasPrefix("HTTP/1.1 200"))
        }
    }
}
