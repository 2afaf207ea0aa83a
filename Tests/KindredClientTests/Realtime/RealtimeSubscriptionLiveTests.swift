import Foundation
import KindredClient
import KindredTestSupport
import Testing

/// `KindredSession.subscribe(channel:)` against the built `kindred serve`.
@Suite struct RealtimeSubscriptionLiveTests {
    /// The `seq` of an event message, or nil for a gap.
    static func seq(_ message: RealtimeMessage?) -> Int64? {
        if case .event(_, let seq, _, _) = message { return seq }
        return nil
    }

    @Test("Events arrive in order; after a server restart the sequence reconnects and resumes without duplicates",
          .timeLimit(.minutes(2)))
    func reconnectsAndResumes() async throws {
        let server = try await LiveServer()
        let session = KindredSession(serverURL: server.url, app: .closer, store: MemoryTokenStore())
        let user = try await session.signUp(email: "ada@example.com", password: "correct horse battery").user
        let channel = "user:\(user.id)"
        let messages = session.subscribe(
            channel: channel, after: 0, reconnect: .init(initialDelay: .milliseconds(100), maximumDelay: .milliseconds(400))
        )
        var iterator = messages.makeAsyncIterator()

        _ = try await session.updateMe(.init(displayName: "One"))
        let first = try await iterator.next()
        guard case .event(let name, 1, "profile.updated", let data) = first else {
            Issue.record("expected event 1, got \(String(describing: first))")
            return
        }
        #expect(name == channel)
        #expect(data.contains(#""displayName":"One""#))

        // While the server is down, nothing is lost: it restarts on the same database and the
        // sequence resubscribes after 1.
        try await server.restart()
        _ = try await session.updateMe(.init(displayName: "Two"))
        _ = try await session.updateMe(.init(displayName: "Three"))
        #expect(Self.seq(try await iterator.next()) == 2)
        #expect(Self.seq(try await iterator.next()) == 3)

        #expect(await server.stop().status == 0)
    }

    @Test("Another user's channel ends the sequence with channel_forbidden", .timeLimit(.minutes(1)))
    func forbiddenChannelEnds() async throws {
        let server = try await LiveServer()
        let session = KindredSession(serverURL: server.url, app: .closer, store: MemoryTokenStore())
        _ = try await session.signUpAnonymously()
        var iterator = session.subscribe(channel: "user:someone-else").makeAsyncIterator()
        await #expect(throws: KindredClientError.server(status: 403, code: "channel_forbidden", message: "you may not read the channel user:someone-else")) {
            _ = try await iterator.next()
        }
        #expect(await server.stop().status == 0)
    }

    @Test("A session revoked elsewhere ends the sequence with sessionExpired at once", .timeLimit(.minutes(1)))
    func revokedSessionEnds() async throws {
        let server = try await LiveServer()
        let store = MemoryTokenStore()
        let session = KindredSession(serverURL: server.url, app: .closer, store: store)
        let user = try await session.signUp(email: "ada@example.com", password: "correct horse battery").user
        var iterator = session.subscribe(channel: "user:\(user.id)", after: 0).makeAsyncIterator()
        _ = try await session.updateMe(.init(displayName: "One"))
        #expect(Self.seq(try await iterator.next()) == 1)
        // The same session's tokens used from elsewhere to log out (a stolen device signed out
        // from the web): the open socket closes, refreshing fails, the stream ends.
        let elsewhere = KindredSession(serverURL: server.url, app: .closer, store: MemoryTokenStore(await store.load()))
        try await elsewhere.logOut()
        await #expect(throws: KindredClientError.sessionExpired) {
            _ = try await iterator.next()
        }
        #expect(await server.stop().status == 0)
    }
}
