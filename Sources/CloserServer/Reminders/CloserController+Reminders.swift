import KindredServerCore
import Foundation
import CloserAPI
import KindredStore
import SQLKit

/// The gentle reminder (`POST /v1/closer/reminders/gentle`): at most 5 per user per rolling
/// hour and one per couple per UTC day, answered with `allowed: false` rather than an error.
extension CloserController {
    /// Sends the caller's partner a gentle reminder when the limits allow.
    func sendGentleReminder(_ user: AuthenticatedUser, rateLimiter: RateLimiter) async throws -> Components.Schemas.CloserGentleReminderResult {
        try AccountsController.requirePermanent(user)
        let callerID = user.user.id
        guard try await Self.coupleOf(callerID, on: database.sql) != nil else { throw KindredError.notPaired }
        let decision = try await rateLimiter.check(key: "closer.gentle:\(callerID)", limit: settings.gentleRemindersPerHour, window: .seconds(3600))
        if case .retryAfter(let seconds) = decision {
            return .init(allowed: false, retryAfterMinutes: max(1, (seconds + 59) / 60))
        }
        let now = clock.now()
        let day = CloserSchedule.utcKey(now)
        let events = self.events
        let sent = try await events.publisher.transaction { tx in
            guard let couple = try await Self.coupleOf(callerID, on: tx.sql) else { throw KindredError.notPaired }
            let locked = try await tx.sql.insert(into: "closer_gentle_reminders").columns("couple_id", "day", "user_id", "sent_at")
                .values(SQLBind(couple.id), SQLBind(day), SQLBind(callerID), SQLBind(now.millisecondsSince1970))
                .ignoringConflicts().returning("day").all()
            guard !locked.isEmpty else { return false }
            try await events.emit(
                .init(
                    type: "closer.gentle_reminder", notification: .closerGentleReminder, title: "A gentle nudge",
                    body: "Your partner is thinking of you: today's question is waiting.", data: ["userId": callerID]
                ),
                coupleID: couple.id, to: couple.partner(of: callerID), on: tx
            )
            return true
        }
        if sent { return .init(allowed: true) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let midnight = calendar.nextDate(after: now, matching: DateComponents(hour: 0, minute: 0, second: 0), matchingPolicy: .nextTime) ?? now
        return .init(allowed: false, retryAfterMinutes: max(1, Int((midnight.timeIntervalSince(now) / 60).rounded(.up))))
    }
}
