import KindredStore

/// StreakSync's hand-written statements, written once (`StatementText`, docs/server.md "Writing
/// SQL"): controllers and jobs run them by name. Every value is bound, page sizes included; a
/// read whose rows the transaction then changes says `lockingRows`.
enum StreakQueries {
    // MARK: Friendships

    private static let friendship = "SELECT \(StreakController.FriendshipRecord.columns) FROM streaksync_friendships"

    /// A friendship by id. Binds: id.
    static let friendshipByID = StatementText("\(friendship) WHERE id = ?")
    /// A friendship by id, locked until the transaction ends. Binds: id.
    static let friendshipByIDLocked = StatementText("\(friendship) WHERE id = ?", lockingRows: true)
    /// The one friendship two people may share, locked until the transaction ends. Binds: pair key.
    static let friendshipByPairLocked = StatementText("\(friendship) WHERE pair_key = ?", lockingRows: true)

    /// A user's accepted friendships, oldest first. Binds: user id, user id.
    static let acceptedFriendships = StatementText(
        "\(friendship) WHERE sender_id = ? AND status = 'accepted' UNION ALL "
            + "\(friendship) WHERE recipient_id = ? AND status = 'accepted' ORDER BY accepted_at, id"
    )
    /// The newest 200 pending requests addressed to a user. Binds: user id.
    static let incomingRequests = StatementText(
        "\(friendship) WHERE recipient_id = ? AND status = 'pending' ORDER BY created_at DESC, id DESC LIMIT 200"
    )
    /// The newest 200 pending requests a user sent. Binds: user id.
    static let outgoingRequests = StatementText(
        "\(friendship) WHERE sender_id = ? AND status = 'pending' ORDER BY created_at DESC, id DESC LIMIT 200"
    )

    /// Two profiles, locked in id order until the transaction ends. Binds: user id, user id.
    static let lockTwoProfiles = StatementText(
        "SELECT user_id FROM streaksync_profiles WHERE user_id IN (?, ?) ORDER BY user_id", lockingRows: true
    )

    // MARK: Sync

    /// A user's change counter, locked until the transaction ends. Binds: user id.
    static let syncClockLocked = StatementText(
        "SELECT seq, results, achievements FROM streaksync_sync_clocks WHERE user_id = ?", lockingRows: true
    )

    /// A page of a user's results changed after a cursor. Binds: user id, cursor, page size.
    static let resultChanges = StatementText(
        "SELECT id, game_id, puzzle, score, max_score, completed, local_date, recorded_at, updated_at, fields, deleted, change_seq"
            + " FROM streaksync_results WHERE user_id = ? AND change_seq > ? ORDER BY change_seq LIMIT ?"
    )

    /// A page of a user's achievements changed after a cursor. Binds: user id, cursor, page size.
    static let achievementChanges = StatementText(
        "SELECT id, category, tier, progress, unlocked_at, updated_at, change_seq"
            + " FROM streaksync_achievements WHERE user_id = ? AND change_seq > ? ORDER BY change_seq LIMIT ?"
    )

    // MARK: Scores

    /// A reader's leaderboard: each publisher they read, with the score of a game and day if
    /// any. Binds: game id, local date, reader id.
    static let leaderboard = StatementText(
        "SELECT r.publisher_id, p.display_name, s.score, s.max_score, s.completed, s.current_streak, s.published_at"
            + " FROM streaksync_score_readers r JOIN streaksync_profiles p ON p.user_id = r.publisher_id"
            + " LEFT JOIN streaksync_scores s ON s.user_id = r.publisher_id AND s.game_id = ? AND s.local_date = ?"
            + " WHERE r.reader_id = ?"
    )

    /// Deletes the oldest scores dated before a day (the prune job). Binds: date, limit.
    static let pruneScores = StatementText(
        "DELETE FROM streaksync_scores WHERE (user_id, game_id, local_date) IN ("
            + "SELECT user_id, game_id, local_date FROM streaksync_scores WHERE local_date < ? ORDER BY local_date LIMIT ?"
            + ") RETURNING local_date"
    )
}
