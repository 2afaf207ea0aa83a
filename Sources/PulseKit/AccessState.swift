import Foundation

/// Whether an account has access, by Pulse's rule.
public enum AccessState: String, Sendable, Codable, Equatable, CaseIterable {
    /// The latest expiration is in the future.
    case active
    /// There are plans and the latest expiration has passed.
    case expired
    /// No plans at all (or the answer could not be known: see `AccessAnswer.source`).
    case unknown
}

/// Where an answer came from.
public enum AccessSource: String, Sendable, Codable, Equatable {
    /// The server's record, read just now.
    case server
    /// The last answer the server gave, honoured offline until its expiration.
    case cache
    /// Neither: the server could not be read and nothing cached still holds. Never grants access.
    case failure
}

/// One access check's answer.
public struct AccessAnswer: Sendable, Codable, Equatable {
    /// The state.
    public var state: AccessState
    /// The latest expiration over the plans (nil without plans or when unknown).
    public var latestExpiration: Date?
    /// Where the answer came from.
    public var source: AccessSource
    /// When the server's record behind it was read (now for `.server`, earlier for `.cache`).
    public var checkedAt: Date
    /// What went wrong, for `.cache` and `.failure` answers (one line, no secrets).
    public var problem: String?
    /// Providers whose sync failed, when the answer followed a sync.
    public var syncErrors: [String]?

    /// Whether `other` says the same about access (state, latest expiration, source, problem),
    /// whenever it was read.
    public func sameAccess(as other: AccessAnswer) -> Bool {
        state == other.state && latestExpiration == other.latestExpiration && source == other.source && problem == other.problem
    }

    /// Creates an answer.
    public init(
        state: AccessState, latestExpiration: Date?, source: AccessSource, checkedAt: Date, problem: String? = nil,
        syncErrors: [String]? = nil
    ) {
        self.state = state
        self.latestExpiration = latestExpiration
        self.source = source
        self.checkedAt = checkedAt
        self.problem = problem
        self.syncErrors = syncErrors
    }

    /// Whether the app may open its paid features: only an active state grants access, so any
    /// failure fails closed.
    public var grantsAccess: Bool { state == .active }
}

/// Pulse's latest-expiration rule, shared by the web and iOS apps: no plans → unknown;
/// otherwise active exactly when `max(plans[*].expiration) > now`.
public enum AccessRule {
    /// The state of a plan list at `now`.
    /// - Parameters:
    ///   - expirations: the plans' expirations (Unix seconds).
    ///   - now: the time judged at.
    /// - Returns: the state and the latest expiration.
    public static func evaluate(expirations: [Int64], now: Date) -> (state: AccessState, latest: Date?) {
        guard let latest = expirations.max() else { return (.unknown, nil) }
        let date = Date(timeIntervalSince1970: TimeInterval(latest))
        return (Double(latest) > now.timeIntervalSince1970 ? .active : .expired, date)
    }
}
