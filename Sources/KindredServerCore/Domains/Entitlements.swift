import Foundation

/// Who has premium access to which app: the core's question, billing's answer. Apps ask it (Closer
/// for premium packs, Ex-Eraser for its tier) so that no app domain imports billing; the
/// composition root hands billing's implementation to every domain through `DomainEnvironment`.
/// Every check fails closed: a state that cannot be read is no access.
public protocol Entitlements: Sendable {
    /// Whether the user's subscription to `app` grants its premium features now.
    func hasPremium(userID: String, app: AppID) async -> Bool
    /// The app's tier for the user: its entitlement name while access lasts, else `free`.
    func tier(userID: String) async -> String
    /// Which of `userIDs` hold any plan at all: a cheap filter before per-user checks in a batch
    /// (most users have none).
    /// - Throws: when the read fails.
    func usersWithPlans(among userIDs: Set<String>) async throws -> Set<String>
    /// Where `GET /v1/me` reads whether the account has premium access now, joined into its one
    /// hot read; nil: every account reads `hasPremium: false`.
    var premiumSource: PremiumSource? { get }
}

extension Entitlements {
    /// No table to read.
    public var premiumSource: PremiumSource? { nil }
}

/// A table keyed by user id with the time premium access lasts until (seconds since 1970): the
/// entitlement provider's stored record, which the core joins into `GET /v1/me` by these names.
public struct PremiumSource: Sendable, Equatable {
    /// The table.
    public var table: String
    /// Its user id column.
    public var userColumn: String
    /// Its column of when access ends (seconds since 1970; NULL: none).
    public var expiryColumn: String

    /// Creates a source. The names are the provider's schema, never input.
    public init(table: String, userColumn: String, expiryColumn: String) {
        self.table = table
        self.userColumn = userColumn
        self.expiryColumn = expiryColumn
    }
}

/// No premium for anyone: the entitlements of a server without billing (and of tests that do
/// not care).
public struct NoEntitlements: Entitlements {
    /// Creates it.
    public init() {}

    /// Always false.
    public func hasPremium(userID: String, app: AppID) async -> Bool { false }
    /// Always `free`.
    public func tier(userID: String) async -> String { "free" }
    /// Always empty.
    public func usersWithPlans(among userIDs: Set<String>) async throws -> Set<String> { [] }
}
