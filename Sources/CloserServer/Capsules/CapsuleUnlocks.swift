import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// The hourly job `closer.unlock-capsules` (the seed's `unlockDueMemoryCapsules`): reads the
/// capsules whose unlock time passed and that were not announced yet, through the index on
/// `pending_unlock_at`, a bounded page at a time; marks each one (`unlocked_at`) and announces it
/// once: `closer.capsule_unlocked` on the couple's channel and a push to both members through the
/// outbox (deferred past quiet hours). The content is served from the unlock time on whether or
/// not the job has run; the job only announces.
enum CapsuleUnlocks {
    /// The job's name.
    static let jobName = "closer.unlock-capsules"

    /// Registers the job, hourly.
    static func register(on platform: Platform) throws {
        let queue = platform.queue
        let relay = platform.realtime
        try platform.jobs.register(
            Job(jobName, schedule: "7 * * * *") { context in
                let events = CloserEvents(outbox: OutcomeReminders.jobOutbox(clock: context.clock, queue: queue), relay: relay)
                let now = context.clock.now()
                let unlocked = try await context.forEachPage(limit: 200) { limit in
                    try await unlockPage(limit: limit, now: now, events: events)
                }
                return "unlocked \(unlocked) capsules"
            }
        )
    }

    /// Announces one page of due capsules; returns how many it handled.
    static func unlockPage(limit: Int, now: Date, events: CloserEvents) async throws -> Int {
        let nowMS = now.millisecondsSince1970
        return try await events.publisher.transaction { tx in
            let sql = tx.sql
            let rows = try await sql.select().columns("id", "couple_id").from("closer_capsules")
                .where("pending_unlock_at", .lessThanOrEqual, nowMS).orderBy("pending_unlock_at").limit(limit).all()
            for row in rows {
                let id = try row.decode(column: "id", as: String.self)
                let coupleID = try row.decode(column: "couple_id", as: String.self)
                let flipped = try await sql.update("closer_capsules").set("pending_unlock_at", to: SQLLiteral.null).set("unlocked_at", to: nowMS)
                    .where("id", .equal, id).where("pending_unlock_at", .isNot, SQLLiteral.null).returning("id").all()
                guard !flipped.isEmpty,
                    let couple = try await sql.select().columns("user_a_id", "user_b_id").from("closer_couples").where("id", .equal, coupleID).first()
                else { continue }
                try await events.emit(
                    .init(type: "closer.capsule_unlocked", notification: nil, title: "", body: "", data: ["capsuleId": id]), coupleID: coupleID, to: nil, on: tx
                )
                for member in [try couple.decode(column: "user_a_id", as: String.self), try couple.decode(column: "user_b_id", as: String.self)] {
                    try await events.outbox.enqueue(
                        OutgoingNotification(
                            userID: member, app: .closer, type: .closerCapsule, title: "A time capsule opened",
                            body: "A memory you two sealed is ready to open.",
                            data: ["event": "closer.capsule_unlocked", "coupleId": coupleID, "capsuleId": id], collapseID: "closer.capsule_unlocked:\(id)"
                        ),
                        on: sql
                    )
                }
            }
            return rows.count
        }
    }
}
