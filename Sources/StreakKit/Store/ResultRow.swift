import Foundation
import GRDB

/// A `results` row: a `GameResult` as stored, with the time it last changed.
struct ResultRow: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    /// The table (migration `v1_results`).
    static let databaseTableName = "results"

    var id: String
    var gameID: String
    var puzzle: Int?
    var variant: String?
    var shareKey: String?
    var score: Int
    var maxScore: Int
    var completed: Bool
    var details: String
    var localDay: String
    var minuteOfDay: Int
    var utcOffsetSeconds: Int
    var timeZone: String
    var recordedAt: String
    var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id
        case gameID = "game_id"
        case puzzle, variant
        case shareKey = "share_key"
        case score
        case maxScore = "max_score"
        case completed, details
        case localDay = "local_day"
        case minuteOfDay = "minute_of_day"
        case utcOffsetSeconds = "utc_offset_seconds"
        case timeZone = "time_zone"
        case recordedAt = "recorded_at"
        case updatedAt = "updated_at"
    }

    /// The columns, for queries.
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let gameID = Column(CodingKeys.gameID)
        static let shareKey = Column(CodingKeys.shareKey)
        static let localDay = Column(CodingKeys.localDay)
        static let recordedAt = Column(CodingKeys.recordedAt)
        static let updatedAt = Column(CodingKeys.updatedAt)
    }

    /// The key that keeps one row per game, puzzle and variant (nil without a puzzle number).
    static func shareKey(of result: GameResult) -> String? {
        result.puzzle.map { "\(result.game.rawValue):\($0):\(result.variant ?? "")" }
    }

    /// The row of `result`, changed at `updatedAt`.
    init(_ result: GameResult, updatedAt: Date) throws(StreakStoreError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let details = try? encoder.encode(result.details) else {
            throw .invalidResult(id: result.id.rawValue, reason: "its details cannot be encoded")
        }
        id = result.id.rawValue
        gameID = result.game.rawValue
        puzzle = result.puzzle
        variant = result.variant
        shareKey = Self.shareKey(of: result)
        score = result.score
        maxScore = result.maxScore
        completed = result.completed
        self.details = String(decoding: details, as: UTF8.self)
        localDay = result.day.description
        minuteOfDay = result.minuteOfDay
        utcOffsetSeconds = result.utcOffsetSeconds
        timeZone = result.timeZoneIdentifier
        recordedAt = StoredDate.text(result.recordedAt)
        self.updatedAt = StoredDate.text(updatedAt)
    }

    /// The stored result.
    /// - Throws: `.corruptRow` when a column holds something the schema does not allow.
    func result() throws(StreakStoreError) -> GameResult {
        func corrupt(_ reason: String) -> StreakStoreError { .corruptRow(table: Self.databaseTableName, id: id, reason: reason) }
        guard let day = LocalDay(localDay) else { throw corrupt("local_day \(localDay) is not a date") }
        guard let recorded = StoredDate.date(recordedAt) else { throw corrupt("recorded_at \(recordedAt) is not an instant") }
        guard let decoded = try? JSONDecoder().decode(GameDetails.self, from: Data(details.utf8)) else {
            throw corrupt("details are not a game's details")
        }
        let share = ParsedShare(
            game: GameID(rawValue: gameID), puzzle: puzzle, variant: variant, score: score, maxScore: maxScore,
            completed: completed, details: decoded)
        let result = GameResult(
            share: share, recordedAt: recorded, day: day, minuteOfDay: minuteOfDay, utcOffsetSeconds: utcOffsetSeconds,
            timeZoneIdentifier: timeZone)
        guard result.id.rawValue == id else { throw corrupt("the id does not match the game, puzzle and day") }
        return result
    }

    /// When the row last changed.
    var updated: Date? { StoredDate.date(updatedAt) }
}
