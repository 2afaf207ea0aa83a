import KindredAPI
import Foundation
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime

/// One account's signed-in session with a Kindred server, for one app.
///
/// It signs in (anonymously, with a password, Apple or Google), keeps the tokens in a
/// `TokenStore`, and hands out `client`: the generated `Client` with a middleware that adds
/// `X-Kindred-App` and `Authorization: Bearer …`, refreshes the access token shortly before it
/// expires, and after a 401 refreshes once and retries once. Concurrent requests share a single
/// refresh. When the server refuses the refresh token, the session is removed from the store
/// and calls fail with `KindredClientError.sessionExpired`.
public actor KindredSession {
    /// How long before its expiry an access token is refreshed instead of sent.
    public static let refreshMargin: TimeInterval = 30

    /// The server's base URL (`http://127.0.0.1:8080`).
    public nonisolated let serverURL: URL
    /// The app every request names in `X-Kindred-App`.
    public nonisolated let app: Components.Schemas.AppID
    nonisolated let transport: any ClientTransport
    let store: any TokenStore
    let now: @Sendable () -> Date

    /// The stored session as last read or written; `nil` until first read.
    private var cached: StoredSession??
    /// The refresh under way, shared by every request that needs it.
    var refreshTask: Task<StoredSession, any Error>?

    /// A session for `app` on `serverURL`, with its tokens in `store`.
    /// - Parameters:
    ///   - serverURL: the server's base URL.
    ///   - app: the app every request names.
    ///   - store: where the tokens are kept; a stored session for another server or app is ignored.
    ///   - transport: the HTTP transport (AsyncHTTPClient's shared client by default).
    ///   - now: the clock that decides when an access token is close to expiry.
    public init(
        serverURL: URL, app: Components.Schemas.AppID, store: any TokenStore,
        transport: any ClientTransport = AsyncHTTPClientTransport(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.serverURL = serverURL
        self.app = app
        self.store = store
        self.transport = transport
        self.now = now
    }

    /// The generated client of the core contract (`KindredAPI`), signed in as this session; an
    /// app's own contract has its client built with `middleware` (CloserKit's `closerClient`).
    ///
    /// Requests that need an account fail with `KindredClientError.notSignedIn` or
    /// `.sessionExpired`, wrapped by the generated client in `ClientError.underlyingError`.
    public nonisolated var client: Client {
        Client(
            serverURL: serverURL, configuration: .kindredClient, transport: transport,
            middlewares: [SessionMiddleware(session: self)]
        )
    }

    /// The generated client without the session: for the sign-in and refresh calls themselves.
    nonisolated var anonymousClient: Client {
        Client(serverURL: serverURL, configuration: .kindredClient, transport: transport, middlewares: [SessionMiddleware(app: app)])
    }

    /// The stored session for this server and app, or `nil` when signed out.
    /// - Throws: `KindredClientError.storage` when the store cannot be read.
    public func storedSession() async throws(KindredClientError) -> StoredSession? {
        if let cached { return cached }
        let loaded: StoredSession?
        do {
            loaded = try await store.load()
        } catch {
            throw Self.storageError(error)
        }
        let mine = loaded.flatMap { $0.serverURL == serverURL && $0.app == app ? $0 : nil }
        cached = .some(mine)
        return mine
    }

    /// The stored session, or `notSignedIn`.
    func requireSession() async throws(KindredClientError) -> StoredSession {
        guard let session = try await storedSession() else { throw .notSignedIn }
        return session
    }

    /// Keeps the tokens of a session the server just issued; returns what the caller learns.
    @discardableResult
    func adopt(_ issued: Components.Schemas.Session) async throws(KindredClientError) -> SignedIn {
        // Whole seconds, rounded down: the expiry round-trips through ISO 8601 exactly and errs early.
        let expiry = Date(timeIntervalSince1970: (now().timeIntervalSince1970 + Double(issued.expiresIn)).rounded(.down))
        let session = StoredSession(
            serverURL: serverURL, app: app, userID: issued.user.id, accessToken: issued.accessToken,
            accessTokenExpiresAt: expiry, refreshToken: issued.refreshToken
        )
        do {
            try await store.save(session)
        } catch {
            throw Self.storageError(error)
        }
        cached = .some(session)
        return SignedIn(user: issued.user, isNewUser: issued.isNewUser)
    }

    /// Removes the session from the store (and from memory).
    func forget() async throws(KindredClientError) {
        cached = .some(nil)
        do {
            try await store.clear()
        } catch {
            throw Self.storageError(error)
        }
    }

    /// A store's failure as a `storage` error.
    static func storageError(_ error: any Error) -> KindredClientError {
        (error as? KindredClientError) ?? .storage("\(error)")
    }
}

/// What signing in tells the caller.
public struct SignedIn: Sendable, Hashable {
    /// The signed-in account.
    public let user: Components.Schemas.User
    /// Whether this sign-in created the account.
    public let isNewUser: Bool
}
