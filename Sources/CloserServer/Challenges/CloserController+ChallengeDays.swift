import CloserAPI
import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// Marking a day's step done (docs/closer.md, "Connection challenges"): per partner, idempotent,
/// never a future day; the mark that gives both partners every day completes the instance.
extension CloserController {
    /// Marks the caller's step of `day` done.
    /// - Throws: 422 `invalid_challenge_day`, 409 `challenge_not_active` /
    ///   `challenge_day_not_open`, 404 `couple_not_found` / `challenge_instance_not_found`.
    func markChallengeDay(
        _ user: AuthenticatedUser, coupleID: String, instanceID: String, day: Int
    ) async throws -> Components.Schemas.CloserChallengeInstance {
        let callerID = user.user.id
        let now = clock.now()
        return try await events.publisher.transaction { tx in
            let sql = tx.sql
            let couple = try await Self.couple(coupleID, member: callerID, locking: true, on: sql)
            var state = try await Self.challengeState(instanceID, coupleID: coupleID, on: sql)
            let instance = state.instance
            guard day >= 1, day <= instance.dayCount else { throw KindredError.invalidChallengeDay(dayCount: instance.dayCount) }
            if state.isDone(callerID, day: day) { return state.document(members: couple.userIDs, now: now) }
            guard instance.status == .active else { throw KindredError.challengeNotActive }
            let today = instance.today(now: now)
            guard day <= today else { throw KindredError.challengeDayNotOpen(today: today) }
            let nowMS = now.millisecondsSince1970
            try await sql.insert(into: "closer_challenge_steps").columns("instance_id", "couple_id", "user_id", "day", "done_at")
                .values(SQLBind(instanceID), SQLBind(coupleID), SQLBind(callerID), SQLBind(day), SQLBind(nowMS)).run()
            state.done.append((userID: callerID, day: day))
            state.instance.updatedAt = nowMS
            let completes = state.isComplete(members: couple.userIDs)
            if completes {
                state.instance.status = .completed
                state.instance.completedAt = nowMS
                state.instance.remindAt = nil
                try await sql.update("closer_challenge_instances").set("status", to: ChallengeInstanceRecord.Status.completed.rawValue)
                    .set("active_key", to: SQLLiteral.null).set("remind_at", to: SQLLiteral.null).set("completed_at", to: nowMS)
                    .set("updated_at", to: nowMS).where("id", .equal, instanceID).run()
            } else {
                try await sql.update("closer_challenge_instances").set("updated_at", to: nowMS).where("id", .equal, instanceID).run()
            }
            try await challengeUpdate(
                "closer.challenge_day_done", instance: state.instance, from: callerID, couple: couple,
                push: completes ? "You both finished \(state.instance.title)!" : "Your partner did day \(day) of \(state.instance.title)",
                day: day, on: tx
            )
            if completes {
                try await challengeUpdate("closer.challenge_completed", instance: state.instance, from: callerID, couple: couple, push: nil, on: tx)
            }
            return state.document(members: couple.userIDs, now: now)
        }
    }
}
