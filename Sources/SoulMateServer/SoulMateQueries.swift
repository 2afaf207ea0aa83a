import KindredStore

/// SoulMate's hand-written statements, written once (`StatementText`, docs/server.md "Writing
/// SQL"): controllers run them by name. Every value is bound, page sizes included; a read whose
/// rows the transaction then changes says `lockingRows`.
enum SoulMateQueries {
    // MARK: Pairs

    private static let membership = "SELECT pair_id, partner_id, joined_at FROM soulmate_pair_members WHERE user_id = ?"
    /// A user's pair membership. Binds: user id.
    static let membershipOf = StatementText(membership)
    /// A user's pair membership, locked until the transaction ends. Binds: user id.
    static let membershipOfLocked = StatementText(membership, lockingRows: true)

    private static let unpair = "SELECT \(SoulMateController.UnpairRecord.columns) FROM soulmate_unpair_requests"
    /// A pair's pending unpair request, if any. Binds: pair id.
    static let pendingUnpair = StatementText("\(unpair) WHERE pair_id = ? AND status = 'pending' LIMIT 1")
    /// An unpair request of a pair. Binds: request id, pair id.
    static let unpairRequest = StatementText("\(unpair) WHERE id = ? AND pair_id = ?")

    // MARK: Pair requests

    private static let request = "SELECT \(SoulMateController.RequestRecord.columns) FROM soulmate_pair_requests"
    /// A pair request by id. Binds: id.
    static let requestByID = StatementText("\(request) WHERE id = ?")
    /// A pair request by id, locked until the transaction ends. Binds: id.
    static let requestByIDLocked = StatementText("\(request) WHERE id = ?", lockingRows: true)
    /// The pending requests between two people, either way. Binds: a, b, b, a.
    static let pendingBetween = StatementText(
        "\(request) WHERE status = 'pending' AND ((from_user_id = ? AND to_user_id = ?) OR (from_user_id = ? AND to_user_id = ?))"
    )
    /// Supersedes every pending request of two people who just paired. Binds: responded at,
    /// a, b, a, b.
    static let supersedePendingOf = StatementText(
        "UPDATE soulmate_pair_requests SET status = 'superseded', responded_at = ?"
            + " WHERE status = 'pending' AND (from_user_id IN (?, ?) OR to_user_id IN (?, ?))"
    )
    /// The newest 200 pending requests to or from a user. Binds: user id, user id.
    static let pendingOf = StatementText(
        "\(request) WHERE status = 'pending' AND (to_user_id = ? OR from_user_id = ?) ORDER BY created_at DESC, id DESC LIMIT 200"
    )

    // MARK: Session lock

    private static let sessionLock = "SELECT \(SoulMateController.LockRecord.columns) FROM soulmate_session_locks WHERE user_id = ?"
    /// A user's session lock. Binds: user id.
    static let sessionLockOf = StatementText(sessionLock)
    /// A user's session lock, locked until the transaction ends. Binds: user id.
    static let sessionLockOfLocked = StatementText(sessionLock, lockingRows: true)

    // MARK: Relay

    /// One read before a send: the sender's pair, their key version and any envelope with the
    /// send's id (columns `e_sender`, `e_recipient`, `e_ciphertext`). Binds: envelope id, user id.
    static let sendContext = StatementText(
        "SELECT m.partner_id, k.key_version, e.sender_id AS e_sender, e.recipient_id AS e_recipient, e.ciphertext AS e_ciphertext"
            + " FROM soulmate_pair_members m LEFT JOIN soulmate_identity_keys k ON k.user_id = m.user_id"
            + " LEFT JOIN soulmate_envelopes e ON e.id = ? WHERE m.user_id = ?"
    )

    private static let envelope = "SELECT id, sender_id, recipient_id, sent_at, key_version, ciphertext, received_at FROM soulmate_envelopes"
    /// The first page of a recipient's envelopes, oldest first. Binds: recipient id, page size.
    static let inboxFirstPage = StatementText("\(envelope) WHERE recipient_id = ? ORDER BY received_at, id LIMIT ?")
    /// A later page of a recipient's envelopes, after a (received_at, id) cursor. Binds:
    /// recipient id, received_at, received_at, id, page size.
    static let inboxPage = StatementText(
        "\(envelope) WHERE recipient_id = ? AND (received_at > ? OR (received_at = ? AND id > ?)) ORDER BY received_at, id LIMIT ?"
    )
}
