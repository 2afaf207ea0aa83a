import Foundation
import GRDB

/// What recording a result did.
public struct RecordOutcome: Hashable, Sendable {
    /// The stored result: the new one, or the one already stored for this share.
    public let result: GameResult
    /// Whether it was new (false: the same share was already recorded, nothing changed).
    public let inserted: Bool
    /// Tiers reached for the first time by this result, lowest first (each celebrated once).
    public let newlyUnlocked: [TierUnlock]
}

/// What recording many results (an import) did.
public struct BatchOutcome: Hashable, Sendable {
    /// Results stored.
    public let inserted: Int
    /// Results already stored (the same id, or the same game, puzzle and variant).
    public let duplicates: Int
    /// Tiers reached for the first time, lowest first within a category.
    public let newlyUnlocked: [TierUnlock]
}

/// Results: recorded once, queued for upload with their day's score, read newest first.
extension StreakStore {
    /// Scores of days older than this many days before today are not published (leaderboards are
    /// daily; the server keeps 400 days): an old imported result is synced, not ranked.
    public static let scorePublishWindowDays = 30

    /// Records `result`: stores it unless the same share is already stored, queues it and its day's
    /// score for upload, and checks the achievements, all in one transaction.
    /// - Parameters:
    ///   - result: the result (its instant is kept to the millisecond).
    ///   - now: when it is recorded (the row's change time and any unlock's date).
    /// - Throws: `.invalidResult` for a game the catalog does not know or a value out of its
    ///   bounds; `.write` when the store cannot be written.
    public func record(_ result: GameResult, now: Date = Date()) throws(StreakStoreError) -> RecordOutcome {
        let catalog = catalog
        return try write("recording \(result.id)") { db in
            let (stored, inserted) = try Self.insert(result, catalog: catalog, now: now, in: db)
            let unlocked = inserted ? try Self.checkAchievements(catalog: catalog, now: now, in: db).newlyUnlocked : []
            return RecordOutcome(result: stored, inserted: inserted, newlyUnlocked: unlocked)
        }
    }

    /// Records many results in one transaction (an import): each as `record(_:now:)` does, with one
    /// achievement check at the end. Nothing is stored when one result is refused.
    /// - Throws: `.invalidResult` naming the first refused result; `.write`.
    public func record(contentsOf results: some Sequence<GameResult>, now: Date = Date()) throws(StreakStoreError) -> BatchOutcome {
        let catalog = catalog
        let results = Array(results)
        return try write("recording \(results.count) results") { db in
            var inserted = 0
            for result in results where try Self.insert(result, catalog: catalog, now: now, in: db).inserted {
                inserted += 1
            }
            let unlocked = inserted > 0 ? try Self.checkAchievements(catalog: catalog, now: now, in: db).newlyUnlocked : []
            return BatchOutcome(inserted: inserted, duplicates: results.count - inserted, newlyUnlocked: unlocked)
        }
    }

    /// The stored result with this id, or nil.
    public func result(id: GameResultID) throws(StreakStoreError) -> GameResult? {
        try read("reading \(id)") { db in try ResultRow.fetchOne(db, key: id.rawValue)?.result() }
    }

    /// Stored results, newest first (by local day, then recording time).
    /// - Parameters:
    ///   - game: only this game's, when given.
    ///   - limit: at most this many, when given.
    public func results(game: GameID? = nil, limit: Int? = nil) throws(StreakStoreError) -> [GameResult] {
        try read("listing results") { db in
            var request = ResultRow.all()
            if let game { request = request.filter(ResultRow.Columns.gameID == game.rawValue) }
            request = request.order(ResultRow.Columns.localDay.desc, ResultRow.Columns.recordedAt.desc, ResultRow.Columns.id.desc)
            if let limit { request = request.limit(max(0, limit)) }
            return try request.fetchAll(db).map { row throws(StreakStoreError) in try row.result() }
        }
    }

    /// Every stored result, oldest first (by local day, then recording time, then id).
    public func allResults() throws(StreakStoreError) -> [GameResult] {
        try read("listing results") { db in try Self.allResults(in: db) }
    }

    /// How many results are stored.
    public func resultCount() throws(StreakStoreError) -> Int {
        try read("counting results") { db in try ResultRow.fetchCount(db) }
    }

    /// The streak of every game with a stored result, in catalog order, normalised at `now` in
    /// `timeZone` (derived from the history every time, so it cannot drift from it).
    public func streaks(now: Date = Date(), timeZone: TimeZone) throws(StreakStoreError) -> [Streak] {
        let results = try allResults()
        let byGame = Dictionary(grouping: results, by: \.game)
        return catalog.games.compactMap { game in
            guard let played = byGame[game.id] else { return nil }
            return StreakCalculator.streak(for: game, results: played, now: now, timeZone: timeZone)
        }
    }

    /// `game`'s streak at `now` in `timeZone` (not started when it has no result).
    /// - Throws: `.invalidResult` for a game the catalog does not know.
    public func streak(for game: GameID, now: Date = Date(), timeZone: TimeZone) throws(StreakStoreError) -> Streak {
        guard let known = catalog.game(game) else { throw .invalidResult(id: game.rawValue, reason: "no game has this id") }
        let results = try self.results(game: game)
        return StreakCalculator.streak(for: known, results: results, now: now, timeZone: timeZone)
    }

    // MARK: - Inside a transaction

    /// Every result in `db`, oldest first.
    static func allResults(in db: Database) throws -> [GameResult] {
        try ResultRow.order(ResultRow.Columns.localDay, ResultRow.Columns.recordedAt, ResultRow.Columns.id)
            .fetchAll(db).map { row throws(StreakStoreError) in try row.result() }
    }

    /// Checks `result` against its game and stores it (with its upload and score queued) unless the
    /// same share is stored. - Returns: the stored result and whether it is new.
    static func insert(_ result: GameResult, catalog: GameCatalog, now: Date, in db: Database) throws -> (result: GameResult, inserted: Bool) {
        let stored = try checked(result, catalog: catalog)
        if let existing = try ResultRow.fetchOne(db, key: stored.id.rawValue) { return (try existing.result(), false) }
        if let key = ResultRow.shareKey(of: stored),
            let existing = try ResultRow.filter(ResultRow.Columns.shareKey == key).fetchOne(db)
        {
            return (try existing.result(), false)
        }
        try ResultRow(stored, updatedAt: now).insert(db)
        try enqueue(.result, stored.id.rawValue, now: now, in: db)
        if stored.day.ordinal >= LocalDay(now, in: TimeZone(secondsFromGMT: 0) ?? .current).ordinal - scorePublishWindowDays {
            try enqueue(.score, PendingUpload.scoreID(game: stored.game, day: stored.day), now: now, in: db)
        }
        return (stored, true)
    }

    /// `result` with its instant truncated to the millisecond, after checking it against its game.
    /// - Throws: `.invalidResult`.
    static func checked(_ result: GameResult, catalog: GameCatalog) throws(StreakStoreError) -> GameResult {
        guard let game = catalog.game(result.game) else {
            throw .invalidResult(id: result.id.rawValue, reason: "no game has the id \(result.game.rawValue)")
        }
        guard game.admits(result.share) else {
            throw .invalidResult(id: result.id.rawValue, reason: "the score, maximum or puzzle is outside \(game.name)'s bounds")
        }
        guard (0..<1440).contains(result.minuteOfDay), abs(result.utcOffsetSeconds) <= 18 * 3600 else {
            throw .invalidResult(id: result.id.rawValue, reason: "the minute of the day or the zone's offset is out of range")
        }
        return GameResult(
            share: result.share, recordedAt: StoredDate.truncated(result.recordedAt), day: result.day,
            minuteOfDay: result.minuteOfDay, utcOffsetSeconds: result.utcOffsetSeconds,
            timeZoneIdentifier: result.timeZoneIdentifier)
    }
}
