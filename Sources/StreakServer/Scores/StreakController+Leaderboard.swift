import Foundation
import KindredServerCore
import KindredStore
import SQLKit
import StreakAPI

/// Leaderboards: what one reader may read of a game's day, ranked, and who has not played yet.
extension StreakController {
    /// The games and their directions.
    func games() -> Components.Schemas.StreakSyncGames {
        .init(games: StreakGames.lowerIsBetter.sorted { $0.key < $1.key }.map { .init(id: $0.key, lowerIsBetter: $0.value) })
    }

    /// One row of the leaderboard join: a publisher the caller reads, and their score if any.
    struct BoardRow: Sendable {
        var userID: String
        var displayName: String
        var score: Int?
        var max: Int
        var completed: Bool
        var currentStreak: Int
        var publishedAt: Int64
    }

    /// The caller's leaderboard of `game` on `date`: one indexed join from the caller's reader
    /// rows (primary key `reader_id, publisher_id`) to the profiles and the scores (primary key
    /// `user_id, game_id, local_date`); at most 501 rows.
    func leaderboard(_ user: AuthenticatedUser, game rawGame: String, date rawDate: String) async throws
        -> Components.Schemas.StreakSyncLeaderboard
    {
        let game = try Self.game(rawGame)
        let date = try Self.localDate(rawDate)
        let rows = try await database.sql.all(StreakQueries.leaderboard.binding(game.id, date.description, user.id)).map { row in
            BoardRow(
                userID: try row.decode(column: "publisher_id", as: String.self),
                displayName: try row.decode(column: "display_name", as: String.self),
                score: try row.decode(column: "score", as: Int?.self),
                max: try row.decode(column: "max_score", as: Int?.self) ?? 0,
                completed: try row.decode(column: "completed", as: Bool?.self) ?? false,
                currentStreak: try row.decode(column: "current_streak", as: Int?.self) ?? 0,
                publishedAt: try row.decode(column: "published_at", as: Int64?.self) ?? 0
            )
        }
        let played = Self.ranked(rows.filter { $0.score != nil }, lowerIsBetter: game.lowerIsBetter)
        let waiting = rows.filter { $0.score == nil && $0.userID != user.id }
            .sorted { ($0.displayName, $0.userID) < ($1.displayName, $1.userID) }
        return .init(
            gameId: game.id, localDate: date.description, lowerIsBetter: game.lowerIsBetter,
            entries: played.map { rank, row in
                .init(
                    rank: rank, user: .init(id: row.userID, displayName: row.displayName), score: row.score ?? 0, max: row.max,
                    completed: row.completed, currentStreak: row.currentStreak, publishedAt: Self.date(row.publishedAt)
                )
            },
            notPlayed: waiting.map { .init(id: $0.userID, displayName: $0.displayName) }
        )
    }

    /// Completed results first, then the better score in the game's direction, then the earlier
    /// publication; equal results (completion and score) share a rank ("1, 2, 2, 4").
    static func ranked(_ rows: [BoardRow], lowerIsBetter: Bool) -> [(Int, BoardRow)] {
        func key(_ row: BoardRow) -> (Int, Int) {
            let score = row.score ?? 0
            return (row.completed ? 0 : 1, lowerIsBetter ? score : -score)
        }
        let sorted = rows.sorted { a, b in
            let (ka, kb) = (key(a), key(b))
            if ka != kb { return ka < kb }
            return (a.publishedAt, a.userID) < (b.publishedAt, b.userID)
        }
        var result: [(Int, BoardRow)] = []
        for (index, row) in sorted.enumerated() {
            let rank = index > 0 && key(sorted[index - 1]) == key(row) ? result[index - 1].0 : index + 1
            result.append((rank, row))
        }
        return result
    }
}
