import Foundation
import KindredClient
import Testing

/// Signing in and out, server errors and stored sessions, against `FakeAccountsServer`.
@Suite struct SessionAccountTests {
    let server = FakeAccountsServer()
    let store = MemoryTokenStore()
    let clock = ManualClock()
    let session: KindredSession

    init() {
        session = KindredSession(
            serverURL: URL(string: "http://kindred.test")!, app: .closer, store: store, transport: server, now: clock.now
        )
    }

    @Test func signingInStoresTheSessionForThisServerAndApp() async throws {
        let signedIn = try await session.signUpAnonymously()

        #expect(signedIn.isNewUser)
        #expect(signedIn.user.id == FakeAccountsServer.userID)
        #expect(await store.load() == StoredSession(
            serverURL: URL(string: "http://kindred.test")!, app: .closer, userID: FakeAccountsServer.userID,
            accessToken: "access-1", accessTokenExpiresAt: clock.now().addingTimeInterval(900), refreshToken: "refresh-1"
        ))
    }

    @Test func aServerErrorKeepsItsStatusCodeAndMessageAndSendsNoRefresh() async throws {
        await #expect(throws: KindredClientError.server(status: 401, code: "invalid_credentials", message: "scripted invalid_credentials")) {
            try await session.logIn(email: "ada@example.com", password: "wrong")
        }
        #expect(await server.operations == ["logInWithPassword"])
        #expect(await store.load() == nil)
    }

    @Test func withoutASessionNothingIsSent() async throws {
        await #expect(throws: KindredClientError.notSignedIn) { try await session.me() }
        await #expect(throws: KindredClientError.notSignedIn) { try await session.logOut() }
        #expect(await server.log.isEmpty)
    }

    @Test func aStoredSessionOfAnotherAppIsNotUsed() async throws {
        let pair = await server.issuePair()
        await store.save(StoredSession(
            serverURL: URL(string: "http://kindred.test")!, app: .pulse, userID: "u", accessToken: pair.access,
            accessTokenExpiresAt: clock.now().addingTimeInterval(900), refreshToken: pair.refresh
        ))
        await #expect(throws: KindredClientError.notSignedIn) { try await session.me() }
        #expect(await server.log.isEmpty)
    }

    @Test func logOutRevokesThenClears() async throws {
        try await session.signUpAnonymously()

        try await session.logOut()

        #expect(await server.log.last == FakeAccountsServer.Exchange(
            operationID: "logOut", app: "closer", authorization: "Bearer access-1", status: 204
        ))
        #expect(await store.load() == nil)
    }

    @Test func logOutClearsASessionTheServerNoLongerKnows() async throws {
        try await session.signUpAnonymously()
        await server.revoke(refusal: "invalid_refresh_token")

        try await session.logOut()

        #expect(await server.operations == ["signUpAnonymously", "logOut", "refreshSession"])
        #expect(await store.load() == nil)
    }

    @Test(arguments: [
        ("2026-01-02T03:04:05Z", 1_767_323_045.0),
        ("2026-01-02T03:04:05.250Z", 1_767_323_045.25),
    ])
    func datesAreReadWithOrWithoutFractionalSeconds(text: String, seconds: Double) async throws {
        await server.setCreatedAt(text)
        let signedIn = try await session.signUpAnonymously()
        #expect(signedIn.user.createdAt == Date(timeIntervalSince1970: seconds))
    }

    @Test func theRawClientNamesTheAppAndSendsTheToken() async throws {
        try await session.signUpAnonymously()

        let output = try await session.client.getMe(headers: .init(xKindredApp: .pulse))

        #expect(try output.ok.body.json.id == FakeAccountsServer.userID)
        // The session's app wins over what the caller put in the header.
        #expect(await server.log.last == FakeAccountsServer.Exchange(
            operationID: "getMe", app: "closer", authorization: "Bearer access-1", status: 200
        ))
    }
}
