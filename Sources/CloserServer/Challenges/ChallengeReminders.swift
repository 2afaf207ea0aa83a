import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// `closer.challenge-reminders` (the seed's `sendChallengeDayReminders`): every 15 minutes, the
/// instances whose local reminder (`closer.challengeReminderHour`, 19:00 by default) is due, read through the `remind_at` index in bounded
/// pages (never a scan of every couple). Each partner who has not done that day's step is
/// reminded once per instance and day (`closer_challenge_reminders`); quiet hours and opt-outs
/// are applied by the outbox. A run that comes late (the job was down) reminds about the current
/// local day only, never about a day that has already ended.
enum ChallengeReminders {
    /// The job's name.
    static let jobName = "closer.challenge-reminders"
    /// Instances per page.
    static let pageSize = 200

    /// Registers the job on the platform, reminding at `reminderHour`:00 in each instance's zone.
    /// - Throws: `JobError` when the name is taken.
    static func register(on platform: Platform, reminderHour: Int = ChallengeCalendar.defaultReminderHour) throws {
        let queue = platform.queue
        let relay = platform.realtime
        try platform.jobs.register(
            Job(jobName, schedule: "*/15 * * * *") { context in
                let outbox = NotificationOutbox(clock: context.clock) { id, notBefore, sql in
                    _ = try await queue.enqueue(queue: NotificationsQueue.name, payload: id, runAt: notBefore, dedupeKey: id, on: sql)
                }
                let events = CloserEvents(outbox: outbox, relay: relay)
                var sent = 0
                let handled = try await context.forEachPage(limit: pageSize) { limit in
                    let page = try await remindPage(limit: limit, now: context.clock.now(), events: events, reminderHour: reminderHour)
                    sent += page.sent
                    return page.instances
                }
                return "sent \(sent) challenge reminders for \(handled) challenges"
            }
        )
    }

    /// Handles one page of instances whose reminder is due: reminds each partner who has not
    /// done the day, then moves `remind_at` to the next `reminderHour`:00 local (NULL after the last day).
    /// - Returns: the instances handled and the reminders queued.
    static func remindPage(limit: Int, now: Date, events: CloserEvents, reminderHour: Int) async throws -> (instances: Int, sent: Int) {
        let nowMS = now.millisecondsSince1970
        return try await events.publisher.transaction { tx in
            let sql = tx.sql
            let rows = try await sql.select().columns(ChallengeInstanceRecord.columns).from("closer_challenge_instances")
                .where("remind_at", .lessThanOrEqual, nowMS).orderBy("remind_at").limit(limit).all()
            var sent = 0
            for row in rows {
                let instance = try ChallengeInstanceRecord(row: row)
                let zone = ChallengeCalendar.zone(instance.timeZone)
                // The latest reminder time at or before now: a run that comes late reminds about
                // today's day, never about a day that has already ended.
                let period = CloserSchedule(timeZone: zone, minuteOfDay: reminderHour * 60).period(containing: now)
                let nextDay = ChallengeCalendar.dayNumber(start: instance.startDate, key: period.end.key) ?? Int.max
                let remindAgain: any SQLExpression =
                    instance.status == .active && nextDay <= instance.dayCount ? SQLBind(period.end.date.millisecondsSince1970) : SQLLiteral.null
                try await sql.update("closer_challenge_instances").set("remind_at", to: remindAgain).where("id", .equal, instance.id).run()
                guard instance.status == .active,
                    let day = ChallengeCalendar.dayNumber(start: instance.startDate, key: period.start.key), (1..<instance.dayCount + 1).contains(day),
                    let couple = try await sql.select().columns("user_a_id", "user_b_id").from("closer_couples")
                        .where("id", .equal, instance.coupleID).first()
                else { continue }
                let members = [try couple.decode(column: "user_a_id", as: String.self), try couple.decode(column: "user_b_id", as: String.self)]
                let done = Set(try await sql.select().column("user_id").from("closer_challenge_steps")
                    .where("instance_id", .equal, instance.id).where("day", .equal, day).all()
                    .map { try $0.decode(column: "user_id", as: String.self) })
                let reminded = Set(try await sql.select().column("user_id").from("closer_challenge_reminders")
                    .where("instance_id", .equal, instance.id).where("day", .equal, day).all()
                    .map { try $0.decode(column: "user_id", as: String.self) })
                for member in members where !done.contains(member) && !reminded.contains(member) {
                    try await sql.insert(into: "closer_challenge_reminders").columns("instance_id", "couple_id", "user_id", "day", "sent_at")
                        .values(SQLBind(instance.id), SQLBind(instance.coupleID), SQLBind(member), SQLBind(day), SQLBind(nowMS)).run()
                    try await events.emit(
                        .init(
                            type: "closer.challenge_reminder", notification: .closerChallenge, title: instance.title,
                            body: "Day \(day): \(instance.steps[day - 1])",
                            data: ["instanceId": instance.id, "challengeId": instance.challengeID, "day": String(day), "userId": member]
                        ),
                        coupleID: instance.coupleID, to: member, on: tx
                    )
                    sent += 1
                }
            }
            return (rows.count, sent)
        }
    }
}
