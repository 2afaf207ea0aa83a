import Foundation
import KindredServerCore
import KindredStore
import SQLKit
import StreakAPI

/// Scores: one per user, game and local date, readable by the publisher's readers (themselves and
/// their accepted friends). A score of the publisher's current date is announced to every reader
/// at once (`streaksync.score`); a past date's is not (nobody is watching a past day live).
extension StreakController {
    /// The game of a path: its id and ranking direction.
    static func game(_ raw: String) throws -> (id: String, lowerIsBetter: Bool) {
        guard StreakInput.isSlug(raw) else { throw KindredError.invalidGame }
        guard let lowerIsBetter = StreakGames.lowerIsBetter[raw] else { throw KindredError.unknownGame(raw) }
        return (raw, lowerIsBetter)
    }

    /// The date of a path.
    static func localDate(_ raw: String) throws -> LocalDate {
        guard let date = LocalDate(raw) else { throw KindredError.invalidDate }
        return date
    }

    /// The realtime payload of `streaksync.score`.
    struct ScoreEvent: Encodable, Sendable {
        var userId: String
        var displayName: String
        var gameId: String
        var localDate: String
        var score: Int
        var max: Int
        var completed: Bool
        var currentStreak: Int
        var publishedAt: Date
    }

    /// Publishes (or replaces) the caller's score of `game` on `date`.
    func publishScore(
        _ user: AuthenticatedUser, game rawGame: String, date rawDate: String, _ body: Components.Schemas.StreakSyncScorePublish
    ) async throws -> Components.Schemas.StreakSyncScore {
        let game = try Self.game(rawGame)
        let date = try Self.localDate(rawDate)
        guard (0...1_000_000).contains(body.score) else { throw KindredError.invalidScore("score must be 0 to 1000000") }
        guard (0...1_000_000).contains(body.max) else { throw KindredError.invalidScore("max must be 0 to 1000000") }
        guard (0...100_000).contains(body.currentStreak) else { throw KindredError.invalidScore("currentStreak must be 0 to 100000") }
        var zone: TimeZone?
        if let identifier = body.timeZone {
            guard identifier.utf8.count <= 64, let found = TimeZone(identifier: identifier) else {
                throw KindredError.invalidScore("timeZone must be an IANA time zone")
            }
            zone = found
        }
        let now = clock.now()
        let anywhere = LocalDate.todayAnywhere(now)
        guard date <= anywhere.upperBound else { throw KindredError.invalidScore("localDate \(date) is after today everywhere") }
        let oldest = LocalDate(now.addingTimeInterval(-Double(settings.scoreRetentionDays) * 86_400), in: LocalDate.utc)
        guard date >= oldest else {
            throw KindredError.invalidScore("localDate \(date) is older than \(settings.scoreRetentionDays) days")
        }
        let live = zone.map { date == LocalDate(now, in: $0) } ?? anywhere.contains(date)
        let nowMS = now.millisecondsSince1970
        let userID = user.id
        let events = events
        try await events.publisher.transaction { tx in
            let sql = tx.sql
            let name = try await Self.requireProfile(userID, on: sql)
            try await sql.insert(into: "streaksync_scores")
                .columns("user_id", "game_id", "local_date", "score", "max_score", "completed", "current_streak", "published_at")
                .values(
                    SQLBind(userID), SQLBind(game.id), SQLBind(date.description), SQLBind(body.score), SQLBind(body.max),
                    SQLBind(body.completed), SQLBind(body.currentStreak), SQLBind(nowMS)
                )
                .onConflict(with: ["user_id", "game_id", "local_date"]) {
                    $0.set(excludedValueOf: "score").set(excludedValueOf: "max_score").set(excludedValueOf: "completed")
                        .set(excludedValueOf: "current_streak").set(excludedValueOf: "published_at")
                }
                .run()
            guard live else { return }
            let readers = try await sql.select().column("reader_id").from("streaksync_score_readers")
                .where("publisher_id", .equal, userID).all().map { try $0.decode(column: "reader_id", as: String.self) }
            try await events.broadcast(
                "streaksync.score",
                data: ScoreEvent(
                    userId: userID, displayName: name, gameId: game.id, localDate: date.description, score: body.score, max: body.max,
                    completed: body.completed, currentStreak: body.currentStreak, publishedAt: Self.date(nowMS)
                ),
                to: readers, on: tx
            )
        }
        return .init(
            userId: userID, gameId: game.id, localDate: date.description, score: body.score, max: body.max, completed: body.completed,
            currentStreak: body.currentStreak, publishedAt: Self.date(nowMS), live: live
        )
    }

    /// Deletes up to `limit` scores of dates before `cutoff` (the prune job).
    static func deleteScores(before cutoff: LocalDate, limit: Int, database: Database) async throws -> Int {
        try await database.transaction { sql in
            let rows = try await sql.all(StreakQueries.pruneScores.binding(cutoff.description, limit))
            return rows.count
        }
    }
}
