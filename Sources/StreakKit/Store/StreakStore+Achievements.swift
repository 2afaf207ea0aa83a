import Foundation
import GRDB

/// An `achievements` row: one category's `AchievementProgress`.
struct AchievementRow: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    /// The table (migration `v1_achievements`).
    static let databaseTableName = "achievements"

    var category: String
    var value: Int
    var unlocks: String
    var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case category, value, unlocks
        case updatedAt = "updated_at"
    }

    /// The columns, for queries.
    enum Columns {
        static let category = Column(CodingKeys.category)
    }

    /// One stored unlock.
    struct Unlock: Codable {
        var tier: Int
        var unlockedAt: String
    }

    init(_ progress: AchievementProgress, updatedAt: Date) {
        category = progress.category.rawValue
        value = progress.value
        let stored = progress.unlocks.map { Unlock(tier: $0.tier.rawValue, unlockedAt: StoredDate.text($0.unlockedAt)) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        unlocks = String(decoding: (try? encoder.encode(stored)) ?? Data("[]".utf8), as: UTF8.self)
        self.updatedAt = StoredDate.text(updatedAt)
    }

    /// The stored progress. - Throws: `.corruptRow`.
    func progress() throws(StreakStoreError) -> AchievementProgress {
        func corrupt(_ reason: String) -> StreakStoreError { .corruptRow(table: Self.databaseTableName, id: category, reason: reason) }
        guard let category = AchievementCategory(rawValue: category) else { throw corrupt("unknown category") }
        guard let stored = try? JSONDecoder().decode([Unlock].self, from: Data(unlocks.utf8)) else { throw corrupt("unlocks are not JSON") }
        var unlocks: [TierUnlock] = []
        for unlock in stored {
            guard let tier = AchievementTier(rawValue: unlock.tier), let date = StoredDate.date(unlock.unlockedAt) else {
                throw corrupt("an unlock holds tier \(unlock.tier) at \(unlock.unlockedAt)")
            }
            unlocks.append(TierUnlock(category: category, tier: tier, unlockedAt: date))
        }
        return AchievementProgress(category: category, value: value, unlocks: unlocks)
    }
}

/// Achievements: checked against the whole history after each change, tiers never lost, every new
/// tier queued for one celebration and the changed progress queued for upload.
extension StreakStore {
    /// Every category's progress, in category order (a category never reached has value 0 and no tier).
    public func achievements() throws(StreakStoreError) -> [AchievementProgress] {
        try read("reading achievements") { db in try Self.achievements(in: db) }
    }

    /// Checks the achievements against every stored result now (after a settings change, or at launch).
    /// - Returns: the progress and the tiers reached for the first time.
    public func checkAchievements(now: Date = Date()) throws(StreakStoreError) -> AchievementCheck {
        let catalog = catalog
        return try write("checking achievements") { db in try Self.checkAchievements(catalog: catalog, now: now, in: db) }
    }

    /// Tiers reached and not celebrated yet, oldest first.
    public func pendingCelebrations() throws(StreakStoreError) -> [TierUnlock] {
        try read("reading celebrations") { db in
            try Row.fetchAll(db, sql: "SELECT category, tier, unlocked_at FROM celebrations WHERE celebrated_at IS NULL ORDER BY seq")
                .map { row throws(StreakStoreError) in try Self.unlock(row) }
        }
    }

    /// Marks celebrations as shown; they are never queued again.
    public func markCelebrated(_ ids: [AchievementID], at date: Date = Date()) throws(StreakStoreError) {
        try write("marking celebrations") { db in
            for id in ids {
                try db.execute(
                    sql: "UPDATE celebrations SET celebrated_at = ? WHERE achievement_id = ? AND celebrated_at IS NULL",
                    arguments: [StoredDate.text(date), id.rawValue])
            }
        }
    }

    // MARK: - Inside a transaction

    static func achievements(in db: Database) throws -> [AchievementProgress] {
        let stored = try AchievementRow.fetchAll(db).map { row throws(StreakStoreError) in try row.progress() }
        let byCategory = Dictionary(stored.map { ($0.category, $0) }) { first, _ in first }
        return AchievementCategory.allCases.map {
            byCategory[$0] ?? AchievementProgress(category: $0, value: 0, unlocks: [])
        }
    }

    /// Recomputes the metrics from every result, stores what changed (queued for upload) and
    /// queues each newly reached tier for its one celebration.
    static func checkAchievements(catalog: GameCatalog, now: Date, in db: Database) throws -> AchievementCheck {
        let previous = try achievements(in: db)
        let stats = AchievementStats(results: try allResults(in: db), catalog: catalog)
        let check = TieredAchievementChecker().check(stats, previous: previous, now: StoredDate.truncated(now))
        let before = Dictionary(previous.map { ($0.category, $0) }) { first, _ in first }
        for progress in check.progress where progress != before[progress.category] {
            try save(progress, now: now, in: db)
            try enqueue(.achievement, progress.id.rawValue, now: now, in: db)
        }
        for unlock in check.newlyUnlocked {
            try db.execute(
                sql: """
                    INSERT INTO celebrations (achievement_id, category, tier, unlocked_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (achievement_id) DO NOTHING
                    """,
                arguments: [unlock.id.rawValue, unlock.category.rawValue, unlock.tier.rawValue, StoredDate.text(unlock.unlockedAt)])
        }
        return check
    }

    static func save(_ progress: AchievementProgress, now: Date, in db: Database) throws {
        try AchievementRow(progress, updatedAt: now).save(db)
    }

    private static func unlock(_ row: Row) throws(StreakStoreError) -> TierUnlock {
        let categoryText: String = row["category"]
        let tierValue: Int = row["tier"]
        let dateText: String = row["unlocked_at"]
        guard let category = AchievementCategory(rawValue: categoryText), let tier = AchievementTier(rawValue: tierValue),
            let date = StoredDate.date(dateText)
        else { throw .corruptRow(table: "celebrations", id: categoryText, reason: "tier \(tierValue) at \(dateText)") }
        return TierUnlock(category: category, tier: tier, unlockedAt: date)
    }
}
