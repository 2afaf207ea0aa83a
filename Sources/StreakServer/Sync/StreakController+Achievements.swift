import Foundation
import KindredServerCore
import KindredStore
import SQLKit
import StreakAPI

/// The sync of achievement records (the seed's `users/{uid}/sync/achievements`), by their
/// deterministic ids, with the results' rules.
extension StreakController {
    /// A checked achievement record, as stored.
    struct AchievementRecord: Sendable {
        var id: String
        var category: String
        var tier: Int
        var progress: Int
        var unlockedAt: Int64?
        var updatedAt: Int64
    }

    /// Checks a batch; the first bad record refuses it, naming its index and field.
    /// - Throws: 422 `invalid_achievement`.
    func checkAchievements(_ achievements: [Components.Schemas.StreakSyncAchievement]) throws -> [AchievementRecord] {
        guard (1...200).contains(achievements.count) else {
            throw KindredError.invalidAchievement("achievements must hold 1 to 200 records")
        }
        let latest = nowMS + StreakInput.futureSlackMS
        return try achievements.enumerated().map { index, achievement in
            func bad(_ field: String, _ rule: String) -> KindredError { .invalidAchievement("achievements[\(index)].\(field) \(rule)") }
            guard StreakInput.isRecordID(achievement.id) else {
                throw bad("id", "must be 1 to 64 of A-Z, a-z, 0-9, '-', '_', '.' and ':'")
            }
            guard StreakInput.isSlug(achievement.category) else {
                throw bad("category", "must be 1 to 32 of a-z, 0-9 and '-', starting with a letter")
            }
            guard (0...16).contains(achievement.tier) else { throw bad("tier", "must be 0 to 16") }
            guard (0...1_000_000_000).contains(achievement.progress) else { throw bad("progress", "must be 0 to 1000000000") }
            let unlockedAt = achievement.unlockedAt?.millisecondsSince1970
            if let unlockedAt, !(StreakInput.earliestMS...latest).contains(unlockedAt) {
                throw bad("unlockedAt", "must be after 2000 and not in the future")
            }
            let updatedAt = achievement.updatedAt.millisecondsSince1970
            guard (StreakInput.earliestMS...latest).contains(updatedAt) else { throw bad("updatedAt", "must be after 2000 and not in the future") }
            return AchievementRecord(
                id: achievement.id, category: achievement.category, tier: achievement.tier, progress: achievement.progress,
                unlockedAt: unlockedAt, updatedAt: updatedAt
            )
        }
    }

    /// Stores the records of a batch that are later than the stored ones.
    func upsertAchievements(_ user: AuthenticatedUser, _ achievements: [Components.Schemas.StreakSyncAchievement]) async throws
        -> Components.Schemas.StreakSyncUpsertSummary
    {
        let records = try checkAchievements(achievements)
        let userID = user.id
        let limit = settings.maxAchievementsPerUser
        let events = events
        return try await events.publisher.transaction { tx in
            let sql = tx.sql
            var clock = try await StreakSyncClock.lock(userID, on: sql)
            let stored = try await StreakSyncPlan.stored(
                in: "streaksync_achievements", userID: userID, ids: Set(records.map(\.id)), on: sql
            )
            let plan = StreakSyncPlan(records.map { ($0.id, $0.updatedAt) }, stored: stored)
            guard clock.achievements + Int64(plan.newRows) <= Int64(limit) else { throw KindredError.tooManyAchievements(limit) }
            guard !plan.writes.isEmpty else { return .init(applied: plan.applied, ignored: plan.ignored) }
            let insert = sql.insert(into: "streaksync_achievements")
                .columns("user_id", "id", "category", "tier", "progress", "unlocked_at", "updated_at", "change_seq")
            for index in plan.writes {
                let record = records[index]
                clock.seq += 1
                insert.values(
                    SQLBind(userID), SQLBind(record.id), SQLBind(record.category), SQLBind(record.tier), SQLBind(record.progress),
                    SQLBind(record.unlockedAt), SQLBind(record.updatedAt), SQLBind(clock.seq)
                )
            }
            try await insert.onConflict(with: ["user_id", "id"]) {
                $0.set(excludedValueOf: "category").set(excludedValueOf: "tier").set(excludedValueOf: "progress")
                    .set(excludedValueOf: "unlocked_at").set(excludedValueOf: "updated_at").set(excludedValueOf: "change_seq")
            }.run()
            clock.achievements += Int64(plan.newRows)
            try await clock.save(userID, on: sql)
            try await events.emit("streaksync.sync", data: ["collection": "achievements", "cursor": String(clock.seq)], to: [userID], on: tx)
            return .init(applied: plan.applied, ignored: plan.ignored)
        }
    }

    /// The caller's achievement records changed after `cursor`, oldest change first.
    func achievementChanges(_ user: AuthenticatedUser, cursor: String?, limit: Int?) async throws
        -> Components.Schemas.StreakSyncAchievementPage
    {
        let after = try StreakCursor.parse(cursor)
        let limit = try StreakCursor.limit(limit, fallback: 200, max: 200)
        let rows = try await database.sql.all(StreakQueries.achievementChanges.binding(user.id, after, limit + 1))
        var last = after
        var achievements: [Components.Schemas.StreakSyncAchievement] = []
        for row in rows.prefix(limit) {
            last = try row.decode(column: "change_seq", as: Int64.self)
            achievements.append(
                .init(
                    id: try row.decode(column: "id", as: String.self), category: try row.decode(column: "category", as: String.self),
                    tier: try row.decode(column: "tier", as: Int.self), progress: try row.decode(column: "progress", as: Int.self),
                    unlockedAt: try row.decode(column: "unlocked_at", as: Int64?.self).map(Self.date),
                    updatedAt: Self.date(try row.decode(column: "updated_at", as: Int64.self))
                )
            )
        }
        return .init(achievements: achievements, cursor: String(last), hasMore: rows.count > limit)
    }
}
