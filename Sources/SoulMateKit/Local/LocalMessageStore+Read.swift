import Foundation
import GRDB

/// Reading messages: a chat's pages, single messages, the upload queue, undecryptable envelopes.
extension LocalMessageStore {
    /// A chat's messages, newest first: the latest `limit`, or the `limit` before `before`
    /// (keyset paging on (`sent_at`, `id`), served by the index (chat_id, sent_at DESC)).
    /// - Parameters:
    ///   - chatID: the chat.
    ///   - limit: 1 … `maximumPageSize`.
    ///   - before: the cursor of the oldest message of the previous page, or `nil` for the newest page.
    /// - Returns: up to `limit` messages, newest first; equal send times are ordered by id, descending.
    /// - Throws: `.invalidInput` for a limit out of range; `.corruptRow`; `.storeRead`.
    public func newest(chatID: String, limit: Int = 50, before: MessageCursor? = nil) throws(SoulMateKitError) -> [LocalMessage] {
        try Self.checkLimit(limit)
        return try read("read chat") { db in
            if let before {
                let millis = before.sentAt.milliseconds
                return try fetchMessages(db, sql: Self.pageBeforeSQL, arguments: [chatID, millis, millis, before.id, limit])
            }
            return try fetchMessages(db, sql: Self.newestPageSQL, arguments: [chatID, limit])
        }
    }

    /// The message with this id, or `nil`.
    /// - Throws: `.corruptRow`; `.storeRead`.
    public func message(id: String) throws(SoulMateKitError) -> LocalMessage? {
        try read("read message") { db in
            try fetchMessages(db, sql: Self.selectSQL + " WHERE m.id = ?", arguments: [id]).first
        }
    }

    /// Whether a message with this id is stored (without decrypting anything).
    /// - Throws: `.storeRead`.
    public func contains(id: String) throws(SoulMateKitError) -> Bool {
        try read("look up message") { db in try Self.exists(db, id: id) }
    }

    /// The number of messages of a chat (undecryptable envelopes included).
    /// - Throws: `.storeRead`.
    public func count(chatID: String) throws(SoulMateKitError) -> Int {
        try read("count chat") { db in
            try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM local_messages WHERE chat_id = ?"),
                             arguments: [chatID]) ?? 0
        }
    }

    /// The outgoing messages to send, oldest first (by `created_at`, then id): every
    /// `pendingUpload`, and every `failed` one still retryable with fewer than `maxAttempts` tries.
    /// - Parameters:
    ///   - limit: 1 … `maximumPageSize`.
    ///   - maxAttempts: the tries after which a failed message is no longer returned.
    /// - Throws: `.invalidInput` for a limit out of range; `.corruptRow`; `.storeRead`.
    public func pendingUploads(limit: Int = 100, maxAttempts: Int = LocalMessageStore.defaultMaxAttempts) throws(SoulMateKitError) -> [LocalMessage] {
        try Self.checkLimit(limit)
        return try read("read the upload queue") { db in
            try fetchMessages(db, sql: Self.pendingUploadsSQL, arguments: [maxAttempts, limit])
        }
    }

    /// A chat's incoming envelopes kept because they did not decrypt, oldest first.
    /// - Throws: `.corruptRow`; `.storeRead`.
    public func undecryptable(chatID: String) throws(SoulMateKitError) -> [UndecryptableMessage] {
        let messages = try read("read undecryptable messages") { db in
            try fetchMessages(db, sql: Self.undecryptableSQL, arguments: [chatID])
        }
        return messages.compactMap { message in
            guard case .undecryptable(let envelope) = message.content else { return nil }
            return UndecryptableMessage(
                id: message.id, chatID: message.chatID, senderID: message.senderID, recipientID: message.recipientID,
                sentAt: message.sentAt, envelope: envelope, failure: message.failure, createdAt: message.createdAt)
        }
    }

    /// A chat's newest page.
    static let newestPageSQL = selectSQL + " WHERE m.chat_id = ? ORDER BY m.sent_at DESC, m.id DESC LIMIT ?"

    /// The page before a cursor: the range `sent_at <= cursor` of (chat_id, sent_at DESC), equal
    /// times ordered by id.
    static let pageBeforeSQL = selectSQL + """
         WHERE m.chat_id = ? AND m.sent_at <= ? AND (m.sent_at < ? OR m.id < ?)
         ORDER BY m.sent_at DESC, m.id DESC LIMIT ?
        """

    /// Kept envelopes are always `failed`: the search goes through the small `failed` part of
    /// (upload_state, created_at), not through the whole chat (`+` keeps SQLite off the chat index).
    static let undecryptableSQL = selectSQL + """
         WHERE m.upload_state = 'failed' AND m.payload_type = 'undecryptable' AND +m.chat_id = ?
         ORDER BY m.sent_at, m.id
        """

    /// The upload queue: the `pendingUpload` and `failed` parts of (upload_state, created_at).
    static let pendingUploadsSQL = selectSQL + """
         WHERE m.upload_state IN ('pendingUpload', 'failed') AND m.direction = 'outgoing'
           AND (m.upload_state = 'pendingUpload' OR (COALESCE(f.retryable, 1) = 1 AND COALESCE(f.attempts, 0) < ?))
         ORDER BY m.created_at, m.id LIMIT ?
        """

    static func checkLimit(_ limit: Int) throws(SoulMateKitError) {
        guard (1...maximumPageSize).contains(limit) else {
            throw .invalidInput("a page holds 1–\(maximumPageSize) messages, not \(limit)")
        }
    }
}
