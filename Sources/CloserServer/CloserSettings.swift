import KindredServerCore
import Foundation

/// Closer's server settings (docs/server.md's table, `closer.*` keys).
public struct CloserSettings: Sendable, Equatable {
    /// Whether encryption-version-0 invites (no E2EE fields, the seed's iOS gap) are accepted
    /// (`closer.legacyClients`, default false).
    public var legacyClients = false
    /// The zone new couples start in (`closer.defaultTimeZone`, default `America/Chicago`).
    public var defaultTimeZone = "America/Chicago"
    /// The local assignment time, minutes after midnight (`closer.assignmentTime`, default 23:00).
    public var assignmentMinute = 23 * 60
    /// The local time by which a partner who has not answered is reminded (`closer.reminderTime`,
    /// default 20:00; the reminder goes out at the first such time after the assignment).
    public var reminderMinute = 20 * 60
    /// How long an invite stays valid (24 hours).
    public var inviteLifetime: Duration = .seconds(24 * 3600)
    /// Accept attempts per caller per rolling hour (10).
    public var acceptAttemptsPerHour = 10
    /// Invite-parameter look-ups per caller per rolling hour (20).
    public var parameterLookupsPerHour = 20
    /// How long attempts are kept (25 hours).
    public var attemptRetention: Duration = .seconds(25 * 3600)
    /// Gentle reminders per user per rolling hour (5).
    public var gentleRemindersPerHour = 5
    /// How long after a date's `expiresAt` answers are still accepted (24 hours).
    public var answerGrace: Duration = .seconds(24 * 3600)
    /// The most device keys one user may publish (10).
    public var maxDevicesPerUser = 10
    /// Game sessions one couple may start per rolling hour (`closer.gameSessionsPerHour`, 30).
    public var gameSessionsPerHour = 30
    /// The least time between two game pushes to one partner (`closer.gamePushIntervalMinutes`,
    /// 10 minutes; realtime events are not limited).
    public var gamePushInterval: Duration = .seconds(10 * 60)
    /// The local hour of the challenge-day reminder (`closer.challengeReminderHour`, 0–23, 19).
    public var challengeReminderHour = 19
    /// The most memory-lane capsules one couple keeps (`closer.capsulesPerCouple`, 1–100000, 500).
    public var capsulesPerCouple = 500

    /// The defaults.
    public init() {}
}

/// Decides whether a couple is premium (premium packs open to it). The server's is
/// `EntitledCouples`, over the core's `Entitlements` (billing's); `FreeOnlyEntitlements` says no
/// to everyone.
public protocol CloserEntitlements: Sendable {
    /// Whether the couple whose members are `userIDs` is premium.
    func isPremium(coupleID: String, userIDs: [String]) async throws -> Bool
    /// Which of the couples (id → members) are premium; the daily job asks once per page.
    func premiumCouples(_ couples: [String: [String]]) async throws -> Set<String>
}

extension CloserEntitlements {
    /// Asks `isPremium` for each couple.
    public func premiumCouples(_ couples: [String: [String]]) async throws -> Set<String> {
        var premium = Set<String>()
        for (id, users) in couples where try await isPremium(coupleID: id, userIDs: users) { premium.insert(id) }
        return premium
    }
}

/// The default entitlements: every couple is free.
public struct FreeOnlyEntitlements: CloserEntitlements {
    /// Creates it.
    public init() {}

    /// Always false.
    public func isPremium(coupleID: String, userIDs: [String]) async throws -> Bool { false }

    /// Always empty.
    public func premiumCouples(_ couples: [String: [String]]) async throws -> Set<String> { [] }
}
