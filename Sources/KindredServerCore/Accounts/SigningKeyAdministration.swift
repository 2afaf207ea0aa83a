import Foundation
import KindredStore

/// A signing key as operators see it (`kindred keys list`): never its secret.
public struct SigningKeySummary: Sendable, Equatable, Codable {
    /// The key id, the `kid` of the tokens it signs.
    public var id: String
    /// `HS256`.
    public var algorithm: String
    /// `active` (signs and verifies), `previous` (verifies) or `retired` (refused).
    public var state: String
    /// Whether the secret is sealed under a key-encryption key (false: plaintext).
    public var sealed: Bool
    /// The fingerprint of the key-encryption key it is sealed under.
    public var sealedBy: String?
    /// When it was made.
    public var createdAt: Date
    /// When it stopped signing new tokens.
    public var supersededAt: Date?
    /// When it was retired.
    public var retiredAt: Date?
}

/// Operator tasks on the access-token signing keys, run directly on the database
/// (`kindred keys list|rotate|retire`). Replicas pick the change up within
/// `SigningKeySettings.refreshInterval`, and at once for a token naming a key they do not know.
public struct SigningKeyAdministration: Sendable {
    private let store: SigningKeyStore

    /// Administers the keys in `database` (which must be migrated) with the deployment's
    /// account settings (key-encryption key, mode, token lifetime).
    public init(database: Database, auth: AuthConfiguration, clock: any WallClock = SystemClock()) {
        store = SigningKeyStore(database: database, clock: clock, auth: auth)
    }

    /// Every key, oldest first; makes the first one (and seals plaintext ones) as a start would.
    /// - Throws: `SigningKeyError` or a database error.
    public func list() async throws -> [SigningKeySummary] {
        _ = try await store.prepare()
        return try await store.rows().map(Self.summary)
    }

    /// Makes a new active key (see `SigningKeyStore.rotate`).
    /// - Parameter retirePrevious: retire every other key at once (after a leak).
    /// - Returns: every key after the rotation.
    /// - Throws: `SigningKeyError` or a database error.
    public func rotate(retirePrevious: Bool = false) async throws -> (newKey: String, keys: [SigningKeySummary]) {
        _ = try await store.prepare()
        let id = try await store.rotate(retirePrevious: retirePrevious)
        return (id, try await store.rows().map(Self.summary))
    }

    /// Retires a previous key.
    /// - Returns: every key after the retirement.
    /// - Throws: `SigningKeyError` (unknown, active or retired already) or a database error.
    public func retire(id: String) async throws -> [SigningKeySummary] {
        _ = try await store.prepare()
        try await store.retire(id: id)
        return try await store.rows().map(Self.summary)
    }

    /// Seals every live key again under the configured key-encryption key (see
    /// `SigningKeyStore.reseal`): after every replica runs with the new key-encryption key and
    /// the old one as the previous, this moves the keys over; then the previous one can go.
    /// - Returns: the ids sealed again, and every key after it.
    /// - Throws: `SigningKeyError` or a database error.
    public func reseal() async throws -> (resealed: [String], keys: [SigningKeySummary]) {
        _ = try await store.prepare()
        let resealed = try await store.reseal()
        return (resealed, try await store.rows().map(Self.summary))
    }

    private static func summary(_ row: SigningKeyStore.Row) -> SigningKeySummary {
        func date(_ ms: Int64?) -> Date? { ms.map { Date(timeIntervalSince1970: Double($0) / 1000) } }
        return SigningKeySummary(
            id: row.id, algorithm: row.algorithm, state: row.state.rawValue, sealed: row.sealedBy != nil,
            sealedBy: row.sealedBy, createdAt: Date(timeIntervalSince1970: Double(row.createdAt) / 1000),
            supersededAt: date(row.supersededAt), retiredAt: date(row.retiredAt)
        )
    }
}
