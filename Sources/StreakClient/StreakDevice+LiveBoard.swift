import Foundation
import KindredClient
import StreakKit

/// The live leaderboard (`kindred streaks board --watch`): the board now, then again whenever a
/// friend's score of that game and day arrives or the friendships change, over the account's
/// realtime channel.
extension StreakDevice {
    /// The realtime event types that can change a board.
    static let boardEvents: Set<String> = ["streaksync.score", "streaksync.friendship", "streaksync.friendship_removed"]

    /// `game`'s leaderboard on `day`, now and after every change: the first board is read once the
    /// server has confirmed the subscription (so no score published after it is missed), and a
    /// board is yielded only when it differs from the last one yielded (scores of other games or
    /// days, and repeated events, yield nothing). After a reconnect that lost events the board is
    /// read again. Ends with an error when a read fails or the session is over; ends quietly when
    /// the consuming task is cancelled.
    /// - Throws (through the stream): `.invalidInput` for an unknown game; `.client` otherwise.
    public func leaderboardUpdates(game: GameID, day: LocalDay) -> AsyncThrowingStream<Leaderboard, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Leaderboard.self)
        let task = Task {
            do {
                guard store.catalog.game(game) != nil else { throw StreakClientError.invalidInput("no game has the id \(game.rawValue)") }
                let userID = try await userID()
                var last: Leaderboard?
                let messages = session.subscribe(channel: "user:\(userID)", startWithGap: true)
                for try await message in messages {
                    switch message {
                    case .gap:
                        break
                    case .event(_, _, let type, let data):
                        guard Self.boardEvents.contains(type) else { continue }
                        if type == "streaksync.score", !Self.score(data, concerns: game, on: day) { continue }
                    }
                    let board = try await leaderboard(game: game, day: day)
                    if board != last {
                        continuation.yield(board)
                        last = board
                    }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Whether a `streaksync.score` payload is a score of `game` on `day` (an unreadable payload
    /// counts: reading the board again is the safe answer).
    static func score(_ data: String, concerns game: GameID, on day: LocalDay) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] else { return true }
        guard let gameID = object["gameId"] as? String, let date = object["localDate"] as? String else { return true }
        return gameID == game.rawValue && date == day.description
    }
}
