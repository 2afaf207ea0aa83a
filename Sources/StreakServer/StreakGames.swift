import StreakKit

/// The games that have leaderboards, and which way each ranks.
///
/// A server-side table rather than a flag in each published score: every reader then ranks a
/// leaderboard the same way, whatever a publisher's app version sent. It is StreakKit's catalog
/// (`Game.all`, `ScoringModel.lowerIsBetter`) — the app and the server read one list: attempts,
/// guesses, hints and seconds rank lower first; Spelling Bee's points rank higher first. A game
/// the server does not know is refused with 404 `unknown_game`.
enum StreakGames {
    /// Game id → whether a lower score is better.
    static let lowerIsBetter: [String: Bool] = Dictionary(
        uniqueKeysWithValues: Game.all.map { ($0.id.rawValue, $0.scoring.lowerIsBetter) }
    )
}
