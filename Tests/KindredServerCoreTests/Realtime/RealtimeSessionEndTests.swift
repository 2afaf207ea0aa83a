@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredTestSupport
import Testing

/// A session that ends closes its open WebSockets: at once for logout, refresh-token reuse and
/// deletion (every replica, through NOTIFY on PostgreSQL), and at the next heartbeat for a
/// revocation no notification announced.
@Suite struct RealtimeSessionEndTests {
    static let revoked = #"{"op":"error","code":"session_revoked","message":"this session has ended; sign in again"}"#

    @Test("Logout closes that session's socket at once; another session of the account stays open", arguments: Backend.all)
    func logout(backend: Backend) async throws {
        try await RealtimeTestApplication.run(on: backend) { app, client in
            let ada = try await client.signUp("ada@example.com")
            let second = try await client.logIn("ada@example.com").decode(SessionBody.self)
            let channel = "user:\(ada.user.id)"
            try await RealtimeProbe.connect(port: app.port, token: second.accessToken) { other in
                try await other.subscribe(channel)
                try await RealtimeProbe.connect(port: app.port, token: ada.accessToken) { probe in
                    try await probe.subscribe(channel)
                    let status = try await client.call(.post, "/v1/auth/logout", token: ada.accessToken).status
                    #expect(status == .noContent)
                    // The heartbeat is 30 s: a close within the probe's 10 s is the logout's doing.
                    let frames = try await probe.closed()
                    #expect(frames == [Self.revoked])
                }
                try await RealtimeDeliveryTests.publish(app.hub, channel, count: 1)
                let delivered = try await other.next()
                #expect(delivered == RealtimeDeliveryTests.tick(channel, seq: 1, n: 0))
            }
        }
    }

    @Test("Deleting the account closes every socket of it", arguments: Backend.all)
    func deletion(backend: Backend) async throws {
        try await RealtimeTestApplication.run(on: backend) { app, client in
            let ada = try await client.signUp("ada@example.com")
            let second = try await client.logIn("ada@example.com").decode(SessionBody.self)
            try await RealtimeProbe.connect(port: app.port, token: second.accessToken) { other in
                try await RealtimeProbe.connect(port: app.port, token: ada.accessToken) { probe in
                    let status = try await client.call(.delete, "/v1/me", token: ada.accessToken).status
                    #expect(status == .noContent)
                    let frames = try await probe.closed()
                    #expect(frames == [Self.revoked])
                }
                let frames = try await other.closed()
                #expect(frames == [Self.revoked])
            }
        }
    }

    @Test("A reused refresh token revokes the session and closes its socket", arguments: Backend.all)
    func refreshReuse(backend: Backend) async throws {
        try await RealtimeTestApplication.run(on: backend) { app, client in
            let ada = try await client.signUp("ada@example.com")
            let rotated = try await client.refresh(ada.refreshToken)
            #expect(rotated.status == .ok)
            let fresh = try rotated.decode(SessionBody.self)
            try await RealtimeProbe.connect(port: app.port, token: fresh.accessToken) { probe in
                app.clock.advance(by: .seconds(60))
                let reused = try await client.refresh(ada.refreshToken)
                #expect(reused.status == .unauthorized)
                let frames = try await probe.closed()
                #expect(frames == [Self.revoked])
            }
        }
    }

    @Test("An operator disabling the account closes its socket: through NOTIFY on PostgreSQL, at the next heartbeat on SQLite")
    func disabledByOperator() async throws {
        // SQLite: no notification crosses processes; the heartbeat (400 ms here) re-checks the session.
        try await RealtimeTestApplication.run(on: .sqlite, settings: RealtimeHeartbeatTests.fast) { app, client in
            let ada = try await client.signUp("ada@example.com")
            try await RealtimeProbe.connect(port: app.port, token: ada.accessToken) { probe in
                let found = try await AccountAdministration(database: app.database).setDisabled(id: ada.user.id, true)
                #expect(found)
                let frames = try await probe.closed()
                #expect(frames == [Self.revoked])
            }
        }
        guard Backend.all.contains(.postgresql) else { return }
        // PostgreSQL: the default 30 s heartbeat is far beyond the probe's 10 s, so only NOTIFY can close it.
        try await RealtimeTestApplication.run(on: .postgresql) { app, client in
            let ada = try await client.signUp("ada@example.com")
            try await RealtimeProbe.connect(port: app.port, token: ada.accessToken) { probe in
                let found = try await AccountAdministration(database: app.database).setDisabled(id: ada.user.id, true)
                #expect(found)
                let frames = try await probe.closed()
                #expect(frames == [Self.revoked])
            }
        }
    }
}
