@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import KindredTestSupport
import Synchronization
import Testing

/// Who may open the socket and read which channel.
@Suite struct RealtimeAuthorizationTests {
    /// The ticket answer.
    struct TicketBody: Decodable {
        var ticket: String
        var expiresIn: Int
    }

    @Test("Another user's channel is refused with channel_forbidden", arguments: Backend.all)
    func otherUsersChannel(backend: Backend) async throws {
        try await RealtimeTestApplication.run(on: backend) { app, client in
            let ada = try await client.signUp("ada@example.com")
            let bob = try await client.signUp("bob@example.com")
            let channel = "user:\(bob.user.id)"
            try await RealtimeProbe.connect(port: app.port, token: ada.accessToken) { probe in
                let value1 = try await probe.subscribe(channel)
                #expect(value1 == #"{"op":"error","code":"channel_forbidden","message":"you may not read the channel \#(channel)","channel":"\#(channel)"}"#)
                let value2 = try await probe.subscribe("bogus")
                #expect(value2 == #"{"op":"error","code":"invalid_channel","message":"a channel is named <kind>:<id>","channel":"bogus"}"#)
                let value3 = try await probe.subscribe("team:a")
                #expect(value3 == #"{"op":"error","code":"channel_forbidden","message":"you may not read the channel team:a","channel":"team:a"}"#)
                try await probe.send("{}")
                let value4 = try await probe.next()
                #expect(value4 == #"{"op":"error","code":"bad_request","message":"a frame is a JSON object with a string \"op\""}"#)
            }
        }
    }

    @Test("Without a token, with a revoked session, or without upgrading, GET /v1/realtime answers the error")
    func refusedUpgrades() async throws {
        try await RealtimeTestApplication.run(on: .sqlite) { app, client in
            let ada = try await client.signUp("ada@example.com")
            let missing = try await client.call(.get, "/v1/realtime")
            #expect(missing.status == .unauthorized)
            #expect(missing.text == envelope("missing_token", "this route needs an Authorization: Bearer access token"))
            let plain = try await client.call(.get, "/v1/realtime", token: ada.accessToken)
            #expect(plain.status.code == 426)
            #expect(plain.text == envelope("websocket_required", "GET /v1/realtime must be a WebSocket upgrade"))
            await #expect(throws: (any Error).self) {
                try await RealtimeProbe.connect(port: app.port, token: nil) { _ in }
            }
            let value5 = try await client.call(.post, "/v1/auth/logout", token: ada.accessToken).status
            #expect(value5 == .noContent)
            await #expect(throws: (any Error).self) {
                try await RealtimeProbe.connect(port: app.port, token: ada.accessToken) { _ in }
            }
            let revoked = try await client.call(.get, "/v1/realtime", token: ada.accessToken)
            #expect(revoked.text == envelope("session_revoked", "this session has ended; sign in again"))
        }
    }

    @Test("A ticket opens the socket once, without headers; a used, expired or made-up ticket is refused", arguments: Backend.all)
    func tickets(backend: Backend) async throws {
        try await RealtimeTestApplication.run(on: backend) { app, client in
            let ada = try await client.signUp("ada@example.com")
            let issued = try await client.call(.post, "/v1/realtime/ticket", token: ada.accessToken)
            #expect(issued.status == .created)
            let ticket = try issued.decode(TicketBody.self)
            #expect(ticket.expiresIn == 30)
            #expect(ticket.ticket.utf8.count == 43)
            let channel = "user:\(ada.user.id)"
            try await RealtimeProbe.connect(port: app.port, query: "?ticket=\(ticket.ticket)", app: nil) { probe in
                let value6 = try await probe.subscribe(channel)
                #expect(value6 == #"{"op":"subscribed","channel":"\#(channel)","seq":0}"#)
            }
            // Used up.
            await #expect(throws: (any Error).self) {
                try await RealtimeProbe.connect(port: app.port, query: "?ticket=\(ticket.ticket)", app: nil) { _ in }
            }
            let used = try await client.call(.get, "/v1/realtime?ticket=\(ticket.ticket)")
            #expect(used.status == .unauthorized)
            #expect(used.text == envelope("invalid_ticket", "the realtime ticket is unknown, already used or expired; ask for a new one"))
            // Expired.
            let late = try await client.call(.post, "/v1/realtime/ticket", token: ada.accessToken).decode(TicketBody.self)
            app.clock.advance(by: .seconds(31))
            await #expect(throws: (any Error).self) {
                try await RealtimeProbe.connect(port: app.port, query: "?ticket=\(late.ticket)", app: nil) { _ in }
            }
            // Made up.
            let madeUp = try await client.call(.get, "/v1/realtime?ticket=\(String(repeating: "A", count: 43))")
            #expect(madeUp.status == .unauthorized)
            // A ticket needs a signed-in session.
            let value7 = try await client.call(.post, "/v1/realtime/ticket").status
            #expect(value7 == .unauthorized)
        }
    }

    @Test("A membership change ends subscriptions no longer allowed, with unsubscribed/forbidden", arguments: Backend.all)
    func revalidation(backend: Backend) async throws {
        let members = TeamAuthorizer()
        var authorizers = ChannelAuthorizers()
        authorizers.register(kind: "team", members)
        try await RealtimeTestApplication.run(on: backend, authorizers: authorizers) { app, client in
            let ada = try await client.signUp("ada@example.com")
            members.set(["ada-team": [ada.user.id]])
            try await RealtimeProbe.connect(port: app.port, token: ada.accessToken) { probe in
                let value8 = try await probe.subscribe("team:ada-team")
                #expect(value8 == #"{"op":"subscribed","channel":"team:ada-team","seq":0}"#)
                try await app.hub.membershipChanged(user: ada.user.id)
                try await probe.expectSilence(for: .milliseconds(50))  // still a member
                members.set([:])
                try await app.hub.revalidate(channel: try RealtimeChannel("team:ada-team"))
                let value9 = try await probe.next()
                #expect(value9 == #"{"op":"unsubscribed","channel":"team:ada-team","reason":"forbidden"}"#)
                try await RealtimeDeliveryTests.publish(app.hub, "team:ada-team", count: 1)
                try await probe.expectSilence(for: .milliseconds(100))
                #expect(await app.hub.subscriptionCount == 0)
            }
        }
    }
}

/// A `team:<id>` authorizer whose members the test sets.
final class TeamAuthorizer: ChannelAuthorizing {
    private let members = Mutex<[String: Set<String>]>([:])

    func set(_ teams: [String: Set<String>]) {
        members.withLock { $0 = teams }
    }

    func mayRead(_ channel: RealtimeChannel, userID: String, app: AppID) async throws -> Bool {
        members.withLock { $0[channel.id]?.contains(userID) ?? false }
    }
}
