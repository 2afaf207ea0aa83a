import Foundation

/// Whether the account has Closer's `premium` entitlement, and where that answer came from.
public struct PremiumStatus: Codable, Sendable, Equatable {
    /// Where an answer came from.
    public enum Source: String, Codable, Sendable {
        /// The server answered just now.
        case server
        /// The server could not be read; the last server answer still holds (before its expiry).
        case cache
        /// The server could not be read and no usable answer is known: not premium.
        case failure
    }

    /// Whether premium features are unlocked.
    public var isPremium: Bool
    /// When the entitlement ends (Unix time from the server), when it is active and has an end.
    public var expiresAt: Date?
    /// Where the answer came from.
    public var source: Source
    /// Why the server could not be read (`cache` and `failure` only).
    public var problem: String?

    /// An answer from its parts.
    public init(isPremium: Bool, expiresAt: Date?, source: Source, problem: String? = nil) {
        self.isPremium = isPremium
        self.expiresAt = expiresAt
        self.source = source
        self.problem = problem
    }
}
