import KindredServerCore
import Foundation
import KindredStore
import Logging
import SQLKit

/// Closer's scheduled jobs: the daily assignment and the daily-question reminder every 15
/// minutes (UTC), and the hourly purge of expired invites and attempts.
public enum CloserJobs {
    /// Registers the jobs on the platform.
    /// - Throws: `JobError` when a name is taken.
    public static func register(
        on platform: Platform, database: Database, clock: any WallClock, settings: CloserSettings,
        entitlements: any CloserEntitlements = FreeOnlyEntitlements()
    ) throws {
        let assigner = CloserAssigner(settings: settings, entitlements: entitlements)
        try platform.jobs.register(
            Job("closer.assign-daily-questions", schedule: "*/15 * * * *") { context in
                let catalog = try await CloserCatalog.load(from: context.database)
                let now = context.clock.now()
                let assigned = try await context.forEachPage(limit: 500) { limit in
                    try await assigner.assignDuePage(catalog: catalog, now: now, limit: limit, database: context.database)
                }
                return "assigned questions to \(assigned) couples"
            }
        )
        let queue = platform.queue
        let relay = platform.realtime
        try platform.jobs.register(
            Job("closer.daily-reminders", schedule: "*/15 * * * *") { context in
                let outbox = NotificationOutbox(clock: context.clock) { id, notBefore, sql in
                    _ = try await queue.enqueue(queue: NotificationsQueue.name, payload: id, runAt: notBefore, dedupeKey: id, on: sql)
                }
                let events = CloserEvents(outbox: outbox, relay: relay)
                let sent = try await context.forEachPage(limit: 200) { limit in
                    try await remindPage(limit: limit, now: context.clock.now(), events: events)
                }
                return "sent \(sent) daily-question reminders"
            }
        )
        try OutcomeReminders.register(on: platform)
        try CapsuleUnlocks.register(on: platform)
        try ChallengeReminders.register(on: platform, reminderHour: settings.challengeReminderHour)
        try platform.jobs.register(
            Job("closer.purge-invites", schedule: "23 * * * *") { context in
                let now = context.clock.now().millisecondsSince1970
                let invites = try await context.forEachPage(limit: 500) { limit in
                    try await purgePage(table: "closer_invites", key: "code", now: now, limit: limit, database: context.database)
                }
                let attempts = try await context.forEachPage(limit: 500) { limit in
                    try await purgePage(table: "closer_invite_attempts", key: "id", now: now, limit: limit, database: context.database)
                }
                return "deleted \(invites) expired invites and \(attempts) expired attempts"
            }
        )
    }

    /// Reminds, for one page of days whose reminder time has passed, each member who has not
    /// answered; returns how many days it handled.
    static func remindPage(limit: Int, now: Date, events: CloserEvents) async throws -> Int {
        let nowMS = now.millisecondsSince1970
        return try await events.publisher.transaction { tx in
            let sql = tx.sql
            let rows = try await sql.select().columns("couple_id", "date_key", "expires_at").from("closer_days")
                .where("remind_at", .lessThanOrEqual, nowMS).orderBy("remind_at").limit(limit).all()
            for row in rows {
                let coupleID = try row.decode(column: "couple_id", as: String.self)
                let date = try row.decode(column: "date_key", as: String.self)
                try await sql.update("closer_days").set("remind_at", to: SQLLiteral.null)
                    .where("couple_id", .equal, coupleID).where("date_key", .equal, date).run()
                guard try row.decode(column: "expires_at", as: Int64.self) > nowMS,
                    let couple = try await sql.select().columns("user_a_id", "user_b_id").from("closer_couples").where("id", .equal, coupleID).first()
                else { continue }
                let members = [try couple.decode(column: "user_a_id", as: String.self), try couple.decode(column: "user_b_id", as: String.self)]
                let answered = Set(try await sql.select().column("user_id").from("closer_answers")
                    .where("couple_id", .equal, coupleID).where("date_key", .equal, date).all()
                    .map { try $0.decode(column: "user_id", as: String.self) })
                for member in members where !answered.contains(member) {
                    try await events.emit(
                        .init(
                            type: "closer.daily_reminder", notification: .closerDailyQuestion, title: "Today's question",
                            body: "Your daily question is waiting for your answer.", data: ["date": date, "userId": member]
                        ),
                        coupleID: coupleID, to: member, on: tx
                    )
                }
            }
            return rows.count
        }
    }

    /// Deletes one page of rows of `table` whose `expires_at` has passed.
    static func purgePage(table: String, key: String, now: Int64, limit: Int, database: Database) async throws -> Int {
        try await database.transaction { sql in
            let rows = try await sql.select().column(SQLIdentifier(key)).from(table).where("expires_at", .lessThanOrEqual, now).limit(limit).all()
            let keys = try rows.map { try $0.decode(column: key, as: String.self) }
            if !keys.isEmpty { try await sql.delete(from: table).where(SQLIdentifier(key), .in, keys).run() }
            return keys.count
        }
    }
}
