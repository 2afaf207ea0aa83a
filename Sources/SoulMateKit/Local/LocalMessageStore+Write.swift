import Foundation
import GRDB
import KindredCrypto

/// Writing messages: batched inserts, the outgoing queue's states, the unpair wipe.
extension LocalMessageStore {
    /// Stores messages in one transaction; a message whose id is already stored is left as it is.
    ///
    /// Idempotent: storing a received envelope again (the relay redelivers until acknowledged)
    /// changes nothing. Values are validated and sealed before the transaction starts; any
    /// invalid message fails the whole call and nothing is written.
    /// - Parameter messages: the messages (a `failure` or `openedAt` they carry is stored with a new message).
    /// - Returns: how many were new.
    /// - Throws: `.invalidInput`, `.emptyMessage`, `.messageTooLong` for a bad message; `.storeWrite`.
    @discardableResult
    public func insert(_ messages: [LocalMessage]) throws(SoulMateKitError) -> Int {
        guard !messages.isEmpty else { return 0 }
        var rows: [SealedRow] = []
        rows.reserveCapacity(messages.count)
        for message in messages { rows.append(try sealedRow(message)) }
        return try write("store \(messages.count) messages") { db in
            let insert = try db.cachedStatement(sql: Self.insertSQL)
            var inserted = 0
            for row in rows {
                try insert.execute(arguments: row.arguments)
                guard db.changesCount > 0 else { continue }
                inserted += 1
                if let failure = row.message.failure {
                    try db.cachedStatement(sql: Self.insertFailureSQL).execute(arguments: [
                        row.message.id, failure.reason, failure.attempts, failure.retryable ? 1 : 0,
                        failure.updatedAt.milliseconds,
                    ])
                }
                if let openedAt = row.message.openedAt {
                    try db.cachedStatement(sql: Self.insertOpenedSQL).execute(arguments: [row.message.id, openedAt.milliseconds])
                }
            }
            return inserted
        }
    }

    /// Stores a message this phone's user is sending, as `pendingUpload`, before anything is sent.
    /// - Parameters:
    ///   - payload: the content (`ChatContent.payload()` builds a checked one).
    ///   - chatID: the chat (`ChatID.make`).
    ///   - senderID: this phone's user.
    ///   - recipientID: the partner.
    ///   - id: the message id; a new time-ordered one (`LocalMessage.makeID`) when `nil`.
    ///   - sentAt: the send time.
    /// - Returns: the stored message.
    /// - Throws: as `insert`; `.invalidInput` when the id is already stored.
    @discardableResult
    public func insertOutgoing(_ payload: ChatPayload, chatID: String, senderID: String, recipientID: String,
                               id: String? = nil, sentAt: Date = Date()) throws(SoulMateKitError) -> LocalMessage {
        let message = LocalMessage(
            id: id ?? LocalMessage.makeID(sentAt: sentAt), chatID: chatID, senderID: senderID, recipientID: recipientID,
            sentAt: sentAt, payload: payload, direction: .outgoing, uploadState: .pendingUpload)
        guard try insert([message]) == 1 else { throw .invalidInput("a message with id \(message.id) is already stored") }
        return message
    }

    /// Keeps an incoming envelope that did not decrypt: direction `incoming`, state `failed`,
    /// type `undecryptable`, the envelope as the (sealed) value and `reason` in the failure
    /// record (1 attempt), so it can be opened after a key update (`undecryptable(chatID:)`,
    /// `replaceUndecryptable(id:with:)`).
    /// - Returns: `false` when the id was already stored (nothing changed).
    /// - Throws: `.invalidInput` for bad metadata or an envelope over 32 KiB; `.storeWrite`.
    @discardableResult
    public func insertUndecryptable(id: String, chatID: String, senderID: String, recipientID: String, sentAt: Date,
                                    envelope: String, reason: String, now: Date = Date()) throws(SoulMateKitError) -> Bool {
        let message = LocalMessage(
            id: id, chatID: chatID, senderID: senderID, recipientID: recipientID, sentAt: sentAt,
            content: .undecryptable(envelope: envelope), isSecret: false, direction: .incoming, uploadState: .failed,
            createdAt: now, openedAt: nil,
            failure: MessageFailure(reason: reason, attempts: 1, retryable: true, updatedAt: now))
        return try insert([message]) == 1
    }

    /// Stores the payload an undecryptable envelope opened to after a key update: the row gets the
    /// payload's type and sealed value, state `uploaded`, and loses its failure record.
    /// - Returns: the message as now stored.
    /// - Throws: `.messageNotFound`; `.invalidInput` when the row is not undecryptable; payload errors; `.storeWrite`.
    @discardableResult
    public func replaceUndecryptable(id: String, with payload: ChatPayload) throws(SoulMateKitError) -> LocalMessage {
        try ChatContent.check(payload)
        let cipher = cipher
        return try write("replace message \(id)") { db in
            guard let stored = try fetchMessages(db, sql: Self.selectSQL + " WHERE m.id = ?", arguments: [id]).first else {
                throw SoulMateKitError.messageNotFound(id: id)
            }
            guard case .undecryptable = stored.content else {
                throw SoulMateKitError.invalidInput("message \(id) is not an undecryptable envelope")
            }
            var opened = stored
            opened.content = .payload(payload)
            opened.isSecret = payload.type == .secret
            opened.uploadState = .uploaded
            opened.failure = nil
            let sealed = try cipher.seal(Array(payload.value.utf8), for: Self.binding(of: opened, payloadType: payload.type.rawValue))
            try db.cachedStatement(sql: """
                UPDATE local_messages SET payload_type = ?, payload_value = ?, is_secret = ?, upload_state = 'uploaded'
                WHERE id = ? AND payload_type = 'undecryptable'
                """).execute(arguments: [payload.type.rawValue, sealed, opened.isSecret ? 1 : 0, id])
            try db.cachedStatement(sql: "DELETE FROM local_message_failures WHERE message_id = ?").execute(arguments: [id])
            return opened
        }
    }

    /// Marks outgoing messages accepted by the relay (`uploaded`) and drops their failure records.
    /// Unknown ids, incoming messages and messages already uploaded are skipped.
    /// - Returns: how many changed.
    /// - Throws: `.storeWrite`.
    @discardableResult
    public func markUploaded(ids: [String]) throws(SoulMateKitError) -> Int {
        guard !ids.isEmpty else { return 0 }
        return try write("mark \(ids.count) messages uploaded") { db in
            let update = try db.cachedStatement(sql: """
                UPDATE local_messages SET upload_state = 'uploaded'
                WHERE id = ? AND direction = 'outgoing' AND upload_state != 'uploaded'
                """)
            let clear = try db.cachedStatement(sql: "DELETE FROM local_message_failures WHERE message_id = ?")
            var changed = 0
            for id in ids {
                try update.execute(arguments: [id])
                guard db.changesCount > 0 else { continue }
                changed += 1
                try clear.execute(arguments: [id])
            }
            return changed
        }
    }

    /// Marks an outgoing message whose upload failed (`failed`) and records why. A message already
    /// `uploaded` stays so (a late failure of a duplicate request does not undo the relay's acceptance).
    /// - Parameters:
    ///   - id: the message.
    ///   - reason: why (kept in `local_message_failures`; no message content).
    ///   - retryable: `false` when retrying cannot help (the relay refused the envelope): `pendingUploads` skips it.
    ///   - now: the time of the failure.
    /// - Throws: `.messageNotFound`; `.invalidInput` for an incoming message; `.storeWrite`.
    public func markFailed(id: String, reason: String, retryable: Bool = true, now: Date = Date()) throws(SoulMateKitError) {
        try write("mark message \(id) failed") { db in
            let direction = try String.fetchOne(db.cachedStatement(sql: "SELECT direction FROM local_messages WHERE id = ?"),
                                                arguments: [id])
            guard let direction else { throw SoulMateKitError.messageNotFound(id: id) }
            guard direction == LocalMessage.Direction.outgoing.rawValue else {
                throw SoulMateKitError.invalidInput("message \(id) is incoming; only an upload can fail")
            }
            try db.cachedStatement(sql: "UPDATE local_messages SET upload_state = 'failed' WHERE id = ? AND upload_state != 'uploaded'")
                .execute(arguments: [id])
            guard db.changesCount > 0 else { return }
            try db.cachedStatement(sql: """
                INSERT INTO local_message_failures (message_id, reason, attempts, retryable, updated_at) VALUES (?, ?, 0, ?, ?)
                ON CONFLICT (message_id) DO UPDATE SET
                    reason = excluded.reason, retryable = excluded.retryable, updated_at = excluded.updated_at
                """).execute(arguments: [id, reason, retryable ? 1 : 0, now.milliseconds])
        }
    }

    /// Counts one more try of a message: an upload (call it before each send) or, for an
    /// undecryptable envelope, a decryption with a new key that failed again.
    /// - Parameters:
    ///   - id: the message.
    ///   - reason: a new reason to record, or `nil` to keep the last one.
    ///   - now: the time of the try.
    /// - Returns: the attempts so far, this one included.
    /// - Throws: `.messageNotFound`; `.storeWrite`.
    @discardableResult
    public func recordAttempt(id: String, reason: String? = nil, now: Date = Date()) throws(SoulMateKitError) -> Int {
        try write("record an attempt of message \(id)") { db in
            guard try Self.exists(db, id: id) else { throw SoulMateKitError.messageNotFound(id: id) }
            try db.cachedStatement(sql: """
                INSERT INTO local_message_failures (message_id, reason, attempts, retryable, updated_at) VALUES (?, ?, 1, 1, ?)
                ON CONFLICT (message_id) DO UPDATE SET
                    reason = COALESCE(excluded.reason, reason), attempts = attempts + 1, updated_at = excluded.updated_at
                """).execute(arguments: [id, reason, now.milliseconds])
            return try Int.fetchOne(db.cachedStatement(sql: "SELECT attempts FROM local_message_failures WHERE message_id = ?"),
                                    arguments: [id]) ?? 0
        }
    }

    /// Records that this phone's user opened a secret message (it is no longer hidden). Opening
    /// again keeps the first time.
    /// - Returns: when it was first opened.
    /// - Throws: `.messageNotFound`; `.invalidInput` when the message is not secret; `.storeWrite`.
    @discardableResult
    public func markOpened(id: String, now: Date = Date()) throws(SoulMateKitError) -> Date {
        try write("mark message \(id) opened") { db in
            let isSecret = try Int.fetchOne(db.cachedStatement(sql: "SELECT is_secret FROM local_messages WHERE id = ?"),
                                            arguments: [id])
            guard let isSecret else { throw SoulMateKitError.messageNotFound(id: id) }
            guard isSecret != 0 else { throw SoulMateKitError.invalidInput("message \(id) is not a secret message") }
            try db.cachedStatement(sql: "INSERT INTO local_message_opened (message_id, opened_at) VALUES (?, ?) ON CONFLICT DO NOTHING")
                .execute(arguments: [id, now.milliseconds])
            let openedAt = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT opened_at FROM local_message_opened WHERE message_id = ?"), arguments: [id])
            return Date(milliseconds: openedAt ?? now.milliseconds)
        }
    }

    /// Deletes every message of a chat, with their side records: the wipe after an unpair. Deleted
    /// pages are zeroed (`secure_delete`) and the write-ahead log is checkpointed and truncated,
    /// so the file keeps no trace of the chat's rows.
    /// - Returns: how many messages were deleted.
    /// - Throws: `.storeWrite`.
    @discardableResult
    public func deleteChat(chatID: String) throws(SoulMateKitError) -> Int {
        let deleted = try write("delete chat") { db in
            try db.cachedStatement(sql: "DELETE FROM local_messages WHERE chat_id = ?").execute(arguments: [chatID])
            return db.changesCount
        }
        guard deleted > 0, path != nil else { return deleted }
        do {
            _ = try database.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            // A reader still uses the log: the next checkpoint copies and truncates it. The rows
            // are deleted either way; only their old pages wait in the log until then.
        } catch {
            throw .storeWrite("chat deleted, but the write-ahead log could not be checkpointed: \(error)")
        }
        return deleted
    }

    static let insertFailureSQL = """
        INSERT INTO local_message_failures (message_id, reason, attempts, retryable, updated_at) VALUES (?, ?, ?, ?, ?)
        """
    static let insertOpenedSQL = "INSERT INTO local_message_opened (message_id, opened_at) VALUES (?, ?)"

    static func exists(_ db: Database, id: String) throws -> Bool {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM local_messages WHERE id = ?"), arguments: [id]) != nil
    }
}
