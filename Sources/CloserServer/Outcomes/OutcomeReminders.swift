import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// The check-in reminder job `closer.outcomes-reminders` (the seed's
/// `scheduledOutcomesReminder`), built to scale where the seed's per-minute scan of every couple
/// did not: each couple inside its 90 days has one `closer_outcome_schedule` row holding its next
/// reminder time, and a run reads only due rows through that index, a bounded page at a time.
/// New couples are enrolled through the index on `closer_couples.created_at` from a cursor.
/// A reminder goes to each member who has not answered, at most once per couple, key and member
/// (`closer_outcome_reminders`'s primary key), through the notification outbox (which defers it
/// past the member's quiet hours).
enum OutcomeReminders {
    /// The job's name.
    static let jobName = "closer.outcomes-reminders"
    /// How long after its creation a couple is enrolled: a couple whose transaction is still
    /// committing cannot fall behind the cursor.
    static let enrolmentDelay: TimeInterval = 300

    /// Registers the job, every 15 minutes.
    static func register(on platform: Platform) throws {
        let queue = platform.queue
        let relay = platform.realtime
        try platform.jobs.register(
            Job(jobName, schedule: "*/15 * * * *") { context in
                let events = CloserEvents(outbox: jobOutbox(clock: context.clock, queue: queue), relay: relay)
                let now = context.clock.now()
                let enrolled = try await context.forEachPage(limit: 500) { limit in
                    try await enrolPage(limit: limit, now: now, database: context.database)
                }
                var sent = 0
                _ = try await context.forEachPage(limit: 200) { limit in
                    let page = try await remindPage(limit: limit, now: now, events: events)
                    sent += page.sent
                    return page.handled
                }
                return "enrolled \(enrolled) couples, sent \(sent) check-in reminders"
            }
        )
    }

    /// The outbox of a job: queued notifications are delivered by the notifications queue.
    static func jobOutbox(clock: any WallClock, queue: WorkQueue) -> NotificationOutbox {
        NotificationOutbox(clock: clock) { id, notBefore, sql in
            _ = try await queue.enqueue(queue: NotificationsQueue.name, payload: id, runAt: notBefore, dedupeKey: id, on: sql)
        }
    }

    /// Gives the next page of couples created since the cursor (and at least `enrolmentDelay`
    /// ago) their schedule row; returns how many couples it read.
    static func enrolPage(limit: Int, now: Date, database: Database) async throws -> Int {
        let settled = now.addingTimeInterval(-enrolmentDelay).millisecondsSince1970
        return try await database.transaction { sql in
            guard let cursor = try await sql.select().columns("created_at", "couple_id").from("closer_outcome_enrolment")
                .where("id", .equal, "outcomes").first()
            else { return 0 }
            let after = try cursor.decode(column: "created_at", as: Int64.self)
            let afterID = try cursor.decode(column: "couple_id", as: String.self)
            let rows = try await sql.all(CloserQueries.couplesToEnrol.binding(after, after, afterID, settled, limit))
            var last: (Int64, String)?
            for row in rows {
                let id = try row.decode(column: "id", as: String.self)
                let createdAt = try row.decode(column: "created_at", as: Int64.self)
                last = (createdAt, id)
                let calendar = OutcomeCalendar(timeZone: try row.decode(column: "time_zone", as: String.self), createdAtMS: createdAt)
                guard let key = calendar.firstReminder(after: now) else { continue }
                try await sql.insert(into: "closer_outcome_schedule").columns("couple_id", "next_key", "next_due_at")
                    .values(SQLBind(id), SQLBind(key.rawValue), SQLBind(calendar.remindAt(key).millisecondsSince1970))
                    .ignoringConflicts().run()
            }
            if let last {
                try await sql.update("closer_outcome_enrolment").set("created_at", to: last.0).set("couple_id", to: last.1)
                    .where("id", .equal, "outcomes").run()
            }
            return rows.count
        }
    }

    /// Handles one page of due schedule rows: reminds the members who have not answered, then
    /// moves the row to the couple's next check-in (or deletes it after `day_90`).
    static func remindPage(limit: Int, now: Date, events: CloserEvents) async throws -> (handled: Int, sent: Int) {
        let nowMS = now.millisecondsSince1970
        return try await events.publisher.transaction { tx in
            let sql = tx.sql
            let rows = try await sql.select().columns("couple_id", "next_key").from("closer_outcome_schedule")
                .where("next_due_at", .lessThanOrEqual, nowMS).orderBy("next_due_at").limit(limit).all()
            var sent = 0
            for row in rows {
                let coupleID = try row.decode(column: "couple_id", as: String.self)
                guard let key = OutcomeKey(rawValue: try row.decode(column: "next_key", as: String.self)),
                    let couple = try await sql.select().columns("user_a_id", "user_b_id", "created_at", "time_zone").from("closer_couples")
                        .where("id", .equal, coupleID).first()
                else {
                    try await sql.delete(from: "closer_outcome_schedule").where("couple_id", .equal, coupleID).run()
                    continue
                }
                let calendar = OutcomeCalendar(
                    timeZone: try couple.decode(column: "time_zone", as: String.self), createdAtMS: try couple.decode(column: "created_at", as: Int64.self)
                )
                let members = [try couple.decode(column: "user_a_id", as: String.self), try couple.decode(column: "user_b_id", as: String.self)]
                sent += try await advance(coupleID, from: key, calendar: calendar, members: members, now: now, events: events, on: tx)
            }
            return (rows.count, sent)
        }
    }

    /// Sends `key`'s reminders when they are still worth sending, then the following due ones
    /// (a job that was down catches up in one pass), and leaves the row on the next future
    /// check-in, or deletes it after `day_90`. Returns how many reminders it sent.
    private static func advance(
        _ coupleID: String, from first: OutcomeKey, calendar: OutcomeCalendar, members: [String], now: Date, events: CloserEvents,
        on tx: RealtimeTransaction
    ) async throws -> Int {
        var sent = 0
        var key = first
        while true {
            let due = calendar.remindAt(key)
            if due > now {
                // Not due yet (also when the couple moved to another zone since the row was written).
                try await reschedule(coupleID, key: key, at: due, on: tx.sql)
                return sent
            }
            if due.addingTimeInterval(OutcomeCalendar.reminderGrace) > now {
                sent += try await remind(
                    coupleID, key: key, date: calendar.date(key), members: members, nowMS: now.millisecondsSince1970, events: events, on: tx
                )
            }
            guard let next = key.next else {
                try await tx.sql.delete(from: "closer_outcome_schedule").where("couple_id", .equal, coupleID).run()
                return sent
            }
            key = next
        }
    }

    private static func reschedule(_ coupleID: String, key: OutcomeKey, at date: Date, on sql: any SQLDatabase) async throws {
        try await sql.update("closer_outcome_schedule").set("next_key", to: key.rawValue).set("next_due_at", to: date.millisecondsSince1970)
            .where("couple_id", .equal, coupleID).run()
    }

    /// Reminds each member who has not answered `key` and was not reminded of it yet.
    private static func remind(
        _ coupleID: String, key: OutcomeKey, date: String, members: [String], nowMS: Int64, events: CloserEvents, on tx: RealtimeTransaction
    ) async throws -> Int {
        let sql = tx.sql
        let answered = Set(try await sql.select().column("user_id").from("closer_outcomes")
            .where("couple_id", .equal, coupleID).where("day_key", .equal, key.rawValue).all()
            .map { try $0.decode(column: "user_id", as: String.self) })
        var sent = 0
        for member in members where !answered.contains(member) {
            let locked = try await sql.insert(into: "closer_outcome_reminders").columns("couple_id", "day_key", "user_id", "sent_at")
                .values(SQLBind(coupleID), SQLBind(key.rawValue), SQLBind(member), SQLBind(nowMS))
                .ignoringConflicts().returning("user_id").all()
            guard !locked.isEmpty else { continue }
            try await events.emit(
                .init(
                    type: "closer.outcome_reminder", notification: .closerOutcomeReminder, title: key == .day0 ? "Your first check-in" : "Time for a check-in",
                    body: key == .day0 ? "Start your journey together: answer today's check-in." : "It has been \(key.days) days: take a moment to check in.",
                    data: ["key": key.rawValue, "date": date, "userId": member]
                ),
                coupleID: coupleID, to: member, on: tx
            )
            sent += 1
        }
        return sent
    }
}
