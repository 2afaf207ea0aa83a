@testable import AdminConsole
@testable import BillingServer
@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredTestSupport
import Testing

/// SIGTERM while WebSockets are open: the server does not wait for clients to hang up (the
/// WebSocket layer answers graceful shutdown with a normal close; clients resume elsewhere).
@Suite struct RealtimeShutdownLiveTests {
    @Test("SIGTERM closes a socket with an open subscription (no further frame) and exits 0", .timeLimit(.minutes(1)))
    func shutdownEndsConnections() async throws {
        let server = try await LiveServer()
        do {
            let signUp = try RealtimeReplicasLiveTests.send(
                port: server.port, "POST", "/v1/auth/signup", json: #"{"email":"ada@example.com","password":"correct horse battery"}"#
            )
            let body = try #require(signUp.split(separator: "\r\n\r\n", maxSplits: 1).last)
            let session = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
            let token = try #require(session["accessToken"] as? String)
            let userID = try #require((session["user"] as? [String: Any])?["id"] as? String)
            let channel = "user:\(userID)"
            try await RealtimeProbe.connect(port: server.port, token: token) { probe in
                let subscribed = try await probe.subscribe(channel)
                #expect(subscribed == #"{"op":"subscribed","channel":"\#(channel)","seq":0}"#)
                let stopped = await server.stop()
                #expect(stopped.status == 0, "\(stopped.stderr)")
                let frames = try await probe.closed()
                #expect(frames == [], "server log: \(stopped.stderr)")
            }
        } catch {
            _ = await server.stop()
            throw error
        }
    }
}
