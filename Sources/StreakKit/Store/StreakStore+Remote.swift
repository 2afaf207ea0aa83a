import Foundation
import GRDB

/// A result as another device (through the server) last left it.
public struct SyncedResult: Hashable, Sendable {
    /// The result.
    public let result: GameResult
    /// When a device last changed it: the later change wins.
    public let updatedAt: Date
    /// Whether it was deleted (a tombstone).
    public let deleted: Bool

    /// A synced result from its parts.
    public init(result: GameResult, updatedAt: Date, deleted: Bool) {
        self.result = result
        self.updatedAt = updatedAt
        self.deleted = deleted
    }
}

/// What applying pulled changes did.
public struct RemoteApplyOutcome: Hashable, Sendable {
    /// Records stored, replaced or deleted.
    public let applied: Int
    /// Records not later than the stored ones (or tombstones of records not stored here).
    public let ignored: Int
    /// Ids of records refused because this device's catalog does not admit them (a newer app's game).
    public let rejected: [String]
    /// Tiers reached for the first time by the pulled results.
    public let newlyUnlocked: [TierUnlock]
}

/// Changes pulled from the server: applied without being queued for upload again.
extension StreakStore {
    /// Applies pulled results: a record replaces the stored one only when its `updatedAt` is later;
    /// a tombstone deletes; of two results of one puzzle on different days the earlier day is kept.
    /// Then the achievements are checked.
    public func applyRemote(results: [SyncedResult], now: Date = Date()) throws(StreakStoreError) -> RemoteApplyOutcome {
        let catalog = catalog
        return try write("applying \(results.count) pulled results") { db in
            var applied = 0
            var ignored = 0
            var rejected: [String] = []
            for synced in results {
                let result: GameResult
                do {
                    result = try Self.checked(synced.result, catalog: catalog)
                } catch {
                    rejected.append(synced.result.id.rawValue)
                    continue
                }
                if try Self.apply(result, updatedAt: StoredDate.truncated(synced.updatedAt), deleted: synced.deleted, in: db) {
                    applied += 1
                } else {
                    ignored += 1
                }
            }
            let unlocked = applied > 0 ? try Self.checkAchievements(catalog: catalog, now: now, in: db).newlyUnlocked : []
            return RemoteApplyOutcome(applied: applied, ignored: ignored, rejected: rejected, newlyUnlocked: unlocked)
        }
    }

    /// Merges pulled achievements into the stored ones: the higher value, every tier with its
    /// earliest date (tiers are never lost). - Returns: how many categories changed here.
    @discardableResult
    public func applyRemote(achievements: [AchievementProgress], now: Date = Date()) throws(StreakStoreError) -> Int {
        try write("applying pulled achievements") { db in
            let local = try Self.achievements(in: db)
            let merged = AchievementProgress.deduplicated(local + achievements)
            let before = Dictionary(local.map { ($0.category, $0) }) { first, _ in first }
            var changed = 0
            for progress in merged where progress != before[progress.category] {
                try Self.save(progress, now: now, in: db)
                changed += 1
            }
            return changed
        }
    }

    /// Applies one pulled result. - Returns: whether anything changed.
    private static func apply(_ result: GameResult, updatedAt: Date, deleted: Bool, in db: Database) throws -> Bool {
        if let stored = try ResultRow.fetchOne(db, key: result.id.rawValue) {
            guard let storedUpdate = stored.updated, updatedAt > storedUpdate else { return false }
            if deleted {
                try ResultRow.deleteOne(db, key: result.id.rawValue)
            } else {
                try ResultRow(result, updatedAt: updatedAt).update(db)
            }
            return true
        }
        guard !deleted else { return false }
        if let key = ResultRow.shareKey(of: result),
            let other = try ResultRow.filter(ResultRow.Columns.shareKey == key).fetchOne(db)
        {
            let kept = try other.result()
            guard (result.day, result.recordedAt) < (kept.day, kept.recordedAt) else { return false }
            try ResultRow.deleteOne(db, key: other.id)
        }
        try ResultRow(result, updatedAt: updatedAt).insert(db)
        return true
    }
}
