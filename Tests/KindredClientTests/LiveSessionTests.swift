import Foundation
import KindredClient
import KindredTestSupport
import Testing

/// `KindredSession` against the built `kindred serve`: restarts, logins and real token expiry.
@Suite struct LiveSessionTests {
    @Test(.timeLimit(.minutes(2)))
    func aSessionOutlivesARestartAndItsDataIsIntact() async throws {
        let server = try await LiveServer()
        let store = MemoryTokenStore()
        let session = KindredSession(serverURL: server.url, app: .closer, store: store)
        let signedUp = try await session.signUp(email: "ada@example.com", password: "correct horse battery")
        _ = try await session.updateMe(.init(displayName: "Ada", timeZone: "Europe/Istanbul"))
        let before = try #require(await store.load())

        let stopped = try await server.restart()
        #expect(stopped.status == 0, "\(stopped.stderr)")

        // The access token issued before the restart is still accepted as it is.
        let raw = try LoopbackHTTP.exchange(port: server.port, head: """
            GET /v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Kindred-App: closer\r\n\
            Authorization: Bearer \(before.accessToken)\r\nConnection: close\r\n\r\n
            """)
        #expect(raw.hasPrefix("HTTP/1.1 200"), "\(raw)")
        #expect(raw.contains(#""id":"\#(signedUp.user.id)""#))
        let user = try await session.me()
        #expect(await store.load() == before)  // no refresh was needed

        // A new login, from another device, finds the same account and profile.
        let other = KindredSession(serverURL: server.url, app: .closer, store: MemoryTokenStore())
        let loggedIn = try await other.logIn(email: "ada@example.com", password: "correct horse battery")
        #expect(loggedIn.isNewUser == false)
        #expect(loggedIn.user.id == signedUp.user.id)
        #expect(loggedIn.user.displayName == "Ada")
        #expect(loggedIn.user.timeZone == "Europe/Istanbul")
        // `hasPremium` is only on /v1/me (billing's entitlement), not in a sign-in answer.
        var profile = user
        profile.hasPremium = nil
        #expect(profile == loggedIn.user)

        #expect(await server.stop().status == 0)
    }

    @Test(.timeLimit(.minutes(2)))
    func shortLivedAccessTokensAreRefreshedTransparently() async throws {
        let server = try await LiveServer(environment: ["KINDRED_AUTH_ACCESS_TOKEN_SECONDS": "2"])
        typealias Exchange = RecordingTransport.Exchange

        // A token with 2 s left is inside the 30 s margin: refreshed before the request.
        let store = MemoryTokenStore()
        let transport = RecordingTransport()
        let session = KindredSession(serverURL: server.url, app: .closer, store: store, transport: transport)
        let signedUp = try await session.signUpAnonymously()
        let first = try #require(await store.load())
        #expect(first.accessTokenExpiresAt.timeIntervalSinceNow <= 2)
        #expect(try await session.me().id == signedUp.user.id)
        #expect(await store.load()?.refreshToken != first.refreshToken)
        #expect(await transport.log == [
            Exchange(operationID: "signUpAnonymously", status: 201),
            Exchange(operationID: "refreshSession", status: 200),
            Exchange(operationID: "getMe", status: 200),
        ])

        // A device whose clock jumped back a minute after signing in believes its token is
        // good: the server refuses it (401 token_expired), the session refreshes and retries.
        let slowStore = MemoryTokenStore()
        let slowTransport = RecordingTransport()
        let clock = ManualClock(Date())
        let slow = KindredSession(serverURL: server.url, app: .closer, store: slowStore, transport: slowTransport, now: clock.now)
        try await slow.signUpAnonymously()
        let issued = try #require(await slowStore.load())
        try await Task.sleep(for: .seconds(3))
        clock.advance(by: -60)
        let refused = try LoopbackHTTP.exchange(port: server.port, head: """
            GET /v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Kindred-App: closer\r\n\
            Authorization: Bearer \(issued.accessToken)\r\nConnection: close\r\n\r\n
            """)
        #expect(refused.hasPrefix("HTTP/1.1 401"), "\(refused)")
        #expect(refused.contains(#""code":"token_expired""#))
        #expect(try await slow.me().id == issued.userID)
        #expect(await slowStore.load()?.refreshToken != issued.refreshToken)
        #expect(await slowTransport.log == [
            Exchange(operationID: "signUpAnonymously", status: 201),
            Exchange(operationID: "getMe", status: 401),
            Exchange(operationID: "refreshSession", status: 200),
            Exchange(operationID: "getMe", status: 200),
        ])

        #expect(await server.stop().status == 0)
    }

    @Test(.timeLimit(.minutes(2)))
    func aLoggedOutSessionIsGoneEverywhere() async throws {
        let server = try await LiveServer()
        let store = MemoryTokenStore()
        let session = KindredSession(serverURL: server.url, app: .closer, store: store)
        try await session.signUpAnonymously()
        let issued = try #require(await store.load())

        try await session.logOut()

        #expect(await store.load() == nil)
        let refused = try LoopbackHTTP.exchange(port: server.port, head: """
            GET /v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Kindred-App: closer\r\n\
            Authorization: Bearer \(issued.accessToken)\r\nConnection: close\r\n\r\n
            """)
        #expect(refused.contains(#""code":"session_revoked""#), "\(refused)")
        // The old refresh token no longer works either: a session that still held it ends.
        let stale = KindredSession(serverURL: server.url, app: .closer, store: MemoryTokenStore(StoredSession(
            serverURL: server.url, app: .closer, userID: issued.userID, accessToken: issued.accessToken,
            accessTokenExpiresAt: Date(timeIntervalSince1970: 0), refreshToken: issued.refreshToken
        )))
        await #expect(throws: KindredClientError.sessionExpired) { try await stale.me() }

        #expect(await server.stop().status == 0)
    }
}
