import Foundation
import HTTPTypes
import KindredClient
import OpenAPIRuntime
import Testing

/// Refresh-and-retry, single flight, proactive refresh and the end of a session, against
/// `FakeAccountsServer`.
@Suite struct SessionRefreshTests {
    let server = FakeAccountsServer()
    let store = MemoryTokenStore()
    let clock = ManualClock()
    let session: KindredSession

    init() {
        session = KindredSession(
            serverURL: URL(string: "http://kindred.test")!, app: .closer, store: store, transport: server, now: clock.now
        )
    }

    typealias Exchange = FakeAccountsServer.Exchange

    @Test func a401RefreshesOnceAndRetriesWithTheNewToken() async throws {
        try await session.signUpAnonymously()
        await server.expireAccessTokens()

        let user = try await session.me()

        #expect(user.id == FakeAccountsServer.userID)
        #expect(await server.log == [
            Exchange(operationID: "signUpAnonymously", app: "closer", authorization: nil, status: 201),
            Exchange(operationID: "getMe", app: "closer", authorization: "Bearer access-1", status: 401),
            Exchange(operationID: "refreshSession", app: "closer", authorization: nil, status: 200),
            Exchange(operationID: "getMe", app: "closer", authorization: "Bearer access-2", status: 200),
        ])
        let stored = try #require(await store.load())
        #expect(stored.accessToken == "access-2")
        #expect(stored.refreshToken == "refresh-2")
        #expect(stored.userID == FakeAccountsServer.userID)
    }

    @Test func theRetryIsMadeOnlyOnce() async throws {
        try await session.signUpAnonymously()
        await server.rejectEveryAccessToken()

        await #expect(throws: KindredClientError.server(status: 401, code: "invalid_token", message: "scripted invalid_token")) {
            try await session.me()
        }
        #expect(await server.operations == ["signUpAnonymously", "getMe", "refreshSession", "getMe"])
    }

    @Test func concurrentRequestsShareOneRefresh() async throws {
        try await session.signUpAnonymously()
        await server.setRefreshDelay(.milliseconds(50))
        await server.expireAccessTokens()

        let ids = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 { group.addTask { try await session.me().id } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }

        #expect(ids == Array(repeating: FakeAccountsServer.userID, count: 8))
        #expect(await server.refreshCount == 1)
        let answered = await server.log.filter { $0.operationID == "getMe" && $0.status == 200 }
        #expect(answered.count == 8)
        #expect(answered.allSatisfy { $0.authorization == "Bearer access-2" })
    }

    @Test func aTokenCloseToExpiryIsRefreshedBeforeTheRequest() async throws {
        try await session.signUpAnonymously()  // expires 900 s from now

        clock.advance(by: 869)  // 31 s left: sent as it is
        _ = try await session.me()
        clock.advance(by: 2)  // 29 s left: refreshed first
        _ = try await session.me()

        #expect(await server.log == [
            Exchange(operationID: "signUpAnonymously", app: "closer", authorization: nil, status: 201),
            Exchange(operationID: "getMe", app: "closer", authorization: "Bearer access-1", status: 200),
            Exchange(operationID: "refreshSession", app: "closer", authorization: nil, status: 200),
            Exchange(operationID: "getMe", app: "closer", authorization: "Bearer access-2", status: 200),
        ])
        let stored = try #require(await store.load())
        #expect(stored.accessTokenExpiresAt == clock.now().addingTimeInterval(900))
    }

    @Test(arguments: ["invalid_refresh_token", "refresh_token_reused"])
    func aRefusedRefreshClearsTheStore(code: String) async throws {
        try await session.signUpAnonymously()
        await server.revoke(refusal: code)

        await #expect(throws: KindredClientError.sessionExpired) { try await session.me() }

        #expect(await store.load() == nil)
        #expect(await server.log.map(\.status) == [201, 401, 401])
        await #expect(throws: KindredClientError.notSignedIn) { try await session.me() }
        #expect(await server.log.count == 3)  // signed out: nothing more was sent
    }

    @Test func aRefreshThatFailsOtherwiseKeepsTheSession() async throws {
        try await session.signUpAnonymously()
        let before = await store.load()
        let offline = KindredSession(
            serverURL: URL(string: "http://kindred.test")!, app: .closer, store: store,
            transport: RefusingTransport(), now: clock.now
        )

        await #expect(throws: KindredClientError.transport("connection refused")) { try await offline.me() }
        clock.advance(by: 880)
        await #expect(throws: KindredClientError.transport("connection refused")) { try await offline.me() }

        #expect(await store.load() == before)
    }
}

/// A transport whose every request fails before reaching a server.
struct RefusingTransport: ClientTransport {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "connection refused" }
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        throw Refused()
    }
}
