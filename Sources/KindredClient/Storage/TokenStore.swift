import Foundation

/// Where a `KindredSession` keeps its tokens: the keychain on iOS, a profile file on Linux,
/// memory in tests.
///
/// Implementations throw `KindredClientError.storage` (any other error is reported as one).
public protocol TokenStore: Sendable {
    /// The stored session, or `nil` when there is none.
    func load() async throws -> StoredSession?
    /// Replaces the stored session.
    func save(_ session: StoredSession) async throws
    /// Removes the stored session; removing nothing is not an error.
    func clear() async throws
}

/// A token store in memory, for tests and short-lived tools.
public actor MemoryTokenStore: TokenStore {
    private var session: StoredSession?

    /// A store holding `session` (none by default).
    public init(_ session: StoredSession? = nil) {
        self.session = session
    }

    /// The stored session.
    public func load() -> StoredSession? { session }

    /// Replaces the stored session.
    public func save(_ session: StoredSession) { self.session = session }

    /// Removes the stored session.
    public func clear() { session = nil }
}
