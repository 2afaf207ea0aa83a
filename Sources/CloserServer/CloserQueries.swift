import KindredStore

/// Closer's hand-written statements, written once (`StatementText`, docs/server.md "Writing
/// SQL"): controllers and jobs run them by name. These run in most Closer requests, and SQLKit's
/// builders cost more to serialize than SQLite takes to run them.
enum CloserQueries {
    // MARK: Couples

    private static let couple = "SELECT \(CoupleRecord.columns.joined(separator: ", ")) FROM closer_couples"
        + " WHERE id = ? AND (user_a_id = ? OR user_b_id = ?)"
    /// A couple if a user is a member of it. Binds: couple id, user id, user id.
    static let coupleOfMember = StatementText(couple)
    /// A couple if a user is a member of it, locked until the transaction ends. Binds: couple
    /// id, user id, user id.
    static let coupleOfMemberLocked = StatementText(couple, lockingRows: true)

    /// Couple ⋈ current day ⋈ its answers, if a user is a member of the couple; the day's and
    /// answers' columns are prefixed `d_` and `a_` (null without a day or an answer). Binds:
    /// couple id, user id, user id.
    static let today: StatementText = {
        let couple: String = CoupleRecord.columns.map { "c.\($0)" }.joined(separator: ", ")
        let day: String = DayRecord.columns.map { "d.\($0) AS d_\($0)" }.joined(separator: ", ")
        let answers: String = AnswerRecord.columns.map { "a.\($0) AS a_\($0)" }.joined(separator: ", ")
        return StatementText(
            "SELECT \(couple), \(day), \(answers) FROM closer_couples c"
                + " LEFT JOIN closer_days d ON d.couple_id = c.id AND d.date_key = c.current_day"
                + " LEFT JOIN closer_answers a ON a.couple_id = d.couple_id AND a.date_key = d.date_key"
                + " WHERE c.id = ? AND (c.user_a_id = ? OR c.user_b_id = ?) ORDER BY a.created_at"
        )
    }()

    // MARK: Days and answers

    /// One day of a couple. Binds: couple id, date key.
    static let day = StatementText(
        "SELECT \(DayRecord.columns.joined(separator: ", ")) FROM closer_days WHERE couple_id = ? AND date_key = ?"
    )

    /// Inserts an answer unless its author answered that date already. Binds: `AnswerRecord.binds`.
    static let insertAnswerUnlessPresent = StatementText(
        "INSERT INTO closer_answers (\(AnswerRecord.columns.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: AnswerRecord.columns.count).joined(separator: ", ")
            + ") ON CONFLICT DO NOTHING RETURNING user_id"
    )

    /// Whether one member answered a date: their `user_id`, if so. Binds: couple id, date key, user id.
    static let answered = StatementText("SELECT user_id FROM closer_answers WHERE couple_id = ? AND date_key = ? AND user_id = ?")

    /// A date's answers, oldest first. Binds: couple id, date key.
    static let answersOfDay = StatementText(
        "SELECT \(AnswerRecord.columns.joined(separator: ", ")) FROM closer_answers WHERE couple_id = ? AND date_key = ? ORDER BY created_at"
    )

    /// The authors and schema versions of a date's answers. Binds: couple id, date key.
    static let answerVersions = StatementText("SELECT user_id, schema_version FROM closer_answers WHERE couple_id = ? AND date_key = ?")

    /// Marks a day complete. Binds: completed at, couple id, date key.
    static let completeDay = StatementText(
        "UPDATE closer_days SET completed_at = ?, remind_at = NULL WHERE couple_id = ? AND date_key = ?"
    )

    /// Stores a couple's streak after a completed day. Binds: streak count, last answered
    /// date, last answered at, updated at, couple id.
    static let updateStreak = StatementText(
        "UPDATE closer_couples SET streak_count = ?, last_answered_date = ?, last_answered_at = ?, updated_at = ? WHERE id = ?"
    )

    /// Marks an answer's key released and the answer revealed. Binds: true, true, updated at,
    /// couple id, date key, author.
    static let releaseAndRevealAnswer = StatementText(
        "UPDATE closer_answers SET answer_key_released = ?, is_revealed = ?, updated_at = ? WHERE couple_id = ? AND date_key = ? AND user_id = ?"
    )

    /// Marks an answer's key released. Binds: true, updated at, couple id, date key, author.
    static let releaseAnswer = StatementText(
        "UPDATE closer_answers SET answer_key_released = ?, updated_at = ? WHERE couple_id = ? AND date_key = ? AND user_id = ?"
    )

    // MARK: Release keys

    /// An author's keys in a scope, by recipient and device. Binds: couple id, scope, author.
    static let releaseKeySlots = StatementText(
        "SELECT recipient_id, recipient_device_id, encrypted_answer_key FROM closer_release_keys"
            + " WHERE couple_id = ? AND scope = ? AND user_id = ?"
    )

    /// An author's keyboxes in a scope, oldest first. Binds: couple id, scope, author.
    static let releaseKeysOfAuthor = StatementText(
        "SELECT user_id, recipient_id, recipient_device_id, encrypted_answer_key, created_at FROM closer_release_keys"
            + " WHERE couple_id = ? AND scope = ? AND user_id = ? ORDER BY created_at, recipient_device_id"
    )

    /// The keyboxes in a scope addressed to one device, oldest first. Binds: couple id, scope,
    /// recipient, device id.
    static let releaseKeysOfDevice = StatementText(
        "SELECT user_id, recipient_id, recipient_device_id, encrypted_answer_key, created_at FROM closer_release_keys"
            + " WHERE couple_id = ? AND scope = ? AND recipient_id = ? AND recipient_device_id = ? ORDER BY created_at, user_id"
    )

    // MARK: Capsules

    /// How many capsules a couple keeps (column `n`). Binds: couple id.
    static let capsuleCount = StatementText("SELECT COUNT(*) AS n FROM closer_capsules WHERE couple_id = ?")

    // MARK: Outcome reminders

    /// A page of couples created after a (created_at, id) cursor and no later than a time,
    /// oldest first. Binds: created_at, created_at, id, latest created_at, page size.
    static let couplesToEnrol = StatementText(
        "SELECT id, created_at, time_zone FROM closer_couples"
            + " WHERE (created_at > ? OR (created_at = ? AND id > ?)) AND created_at <= ? ORDER BY created_at, id LIMIT ?"
    )
}
