import Foundation
import GRDB
import KindredCrypto

/// How messages become rows and rows become messages.
extension LocalMessageStore {
    /// The columns every message query selects, in `decode`'s order: the message, its opened
    /// time and its failure record.
    static let selectSQL = """
        SELECT m.id, m.chat_id, m.sender_id, m.recipient_id, m.sent_at, m.payload_type, m.payload_value,
               m.is_secret, m.direction, m.upload_state, m.created_at,
               o.opened_at, f.reason, f.attempts, f.retryable, f.updated_at
        FROM local_messages m
        LEFT JOIN local_message_opened o ON o.message_id = m.id
        LEFT JOIN local_message_failures f ON f.message_id = m.id
        """

    /// The `payload_type` of an envelope kept because it did not decrypt.
    static let undecryptableType = "undecryptable"

    /// A validated message, its value sealed, ready for the insert statement.
    struct SealedRow {
        let message: LocalMessage
        let payloadType: String
        let sealedValue: Data

        var arguments: StatementArguments {
            [message.id, message.chatID, message.senderID, message.recipientID, message.sentAt.milliseconds,
             payloadType, sealedValue, message.isSecret ? 1 : 0, message.direction.rawValue,
             message.uploadState.rawValue, message.createdAt.milliseconds]
        }
    }

    static let insertSQL = """
        INSERT INTO local_messages (id, chat_id, sender_id, recipient_id, sent_at, payload_type, payload_value,
                                    is_secret, direction, upload_state, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (id) DO NOTHING
        """

    /// Checks a message and seals its value.
    /// - Throws: `.invalidInput` for a bad id or metadata, `.emptyMessage` / `.messageTooLong` for a bad payload.
    func sealedRow(_ message: LocalMessage) throws(SoulMateKitError) -> SealedRow {
        guard LocalMessage.isValidID(message.id) else {
            throw .invalidInput("message id \"\(message.id.prefix(80))\" is not 1–64 of A-Z a-z 0-9 - _")
        }
        for (name, value) in [("chat id", message.chatID), ("sender id", message.senderID), ("recipient id", message.recipientID)] {
            guard (1...200).contains(value.utf8.count) else {
                throw .invalidInput("message \(message.id): the \(name) must be 1–200 bytes")
            }
        }
        let payloadType: String
        let value: String
        switch message.content {
        case .payload(let payload):
            try ChatContent.check(payload)
            payloadType = payload.type.rawValue
            value = payload.value
        case .undecryptable(let envelope):
            guard message.direction == .incoming, message.uploadState == .failed else {
                throw .invalidInput("message \(message.id): an undecryptable envelope is incoming and failed")
            }
            guard (1...SoulMateChatKey.maximumEnvelopeLength).contains(envelope.utf8.count) else {
                throw .invalidInput("message \(message.id): the envelope must be 1–\(SoulMateChatKey.maximumEnvelopeLength) characters")
            }
            payloadType = Self.undecryptableType
            value = envelope
        }
        let sealed = try cipher.seal(Array(value.utf8), for: Self.binding(of: message, payloadType: payloadType))
        return SealedRow(message: message, payloadType: payloadType, sealedValue: sealed)
    }

    static func binding(of message: LocalMessage, payloadType: String) -> LocalPayloadCipher.Binding {
        LocalPayloadCipher.Binding(
            id: message.id, chatID: message.chatID, senderID: message.senderID, recipientID: message.recipientID,
            sentAt: message.sentAt.milliseconds, direction: message.direction.rawValue, payloadType: payloadType,
            isSecret: message.isSecret)
    }

    /// Decodes and decrypts a row selected with `selectSQL`.
    /// - Throws: `SoulMateKitError.corruptRow` when a value is outside the schema or the payload does not open.
    func decode(_ row: Row) throws(SoulMateKitError) -> LocalMessage {
        let id = (try? row.decode(String.self, atIndex: 0)) ?? ""
        let columns: Columns
        do {
            columns = try Columns(row)
        } catch {
            throw .corruptRow(id: id, reason: "a column is missing or outside the schema")
        }
        guard let direction = LocalMessage.Direction(rawValue: columns.direction),
              let uploadState = LocalMessage.UploadState(rawValue: columns.uploadState)
        else {
            throw .corruptRow(id: id, reason: "direction or upload state outside the schema")
        }
        let binding = LocalPayloadCipher.Binding(
            id: id, chatID: columns.chatID, senderID: columns.senderID, recipientID: columns.recipientID,
            sentAt: columns.sentAt, direction: columns.direction, payloadType: columns.payloadType,
            isSecret: columns.isSecret)
        let value = String(decoding: try cipher.open(columns.sealed, for: binding), as: UTF8.self)
        let content: LocalMessage.Content
        if columns.payloadType == Self.undecryptableType {
            content = .undecryptable(envelope: value)
        } else {
            guard let kind = ChatPayload.Kind(rawValue: columns.payloadType) else {
                throw .corruptRow(id: id, reason: "unknown payload type")
            }
            content = .payload(ChatPayload(type: kind, value: value))
        }
        return LocalMessage(
            id: id, chatID: columns.chatID, senderID: columns.senderID, recipientID: columns.recipientID,
            sentAt: Date(milliseconds: columns.sentAt), content: content, isSecret: columns.isSecret,
            direction: direction, uploadState: uploadState, createdAt: Date(milliseconds: columns.createdAt),
            openedAt: columns.openedAt.map(Date.init(milliseconds:)), failure: columns.failure)
    }

    /// The raw columns of one row of `selectSQL`, read without GRDB's crashing subscripts.
    private struct Columns {
        let chatID, senderID, recipientID, payloadType, direction, uploadState: String
        let sentAt, createdAt: Int64
        let sealed: Data
        let isSecret: Bool
        let openedAt: Int64?
        let failure: MessageFailure?

        init(_ row: Row) throws {
            chatID = try row.decode(String.self, atIndex: 1)
            senderID = try row.decode(String.self, atIndex: 2)
            recipientID = try row.decode(String.self, atIndex: 3)
            sentAt = try row.decode(Int64.self, atIndex: 4)
            payloadType = try row.decode(String.self, atIndex: 5)
            sealed = try row.decode(Data.self, atIndex: 6)
            isSecret = try row.decode(Int64.self, atIndex: 7) != 0
            direction = try row.decode(String.self, atIndex: 8)
            uploadState = try row.decode(String.self, atIndex: 9)
            createdAt = try row.decode(Int64.self, atIndex: 10)
            openedAt = try row.decode(Int64?.self, atIndex: 11)
            if let attempts = try row.decode(Int?.self, atIndex: 13), let updatedAt = try row.decode(Int64?.self, atIndex: 15) {
                failure = MessageFailure(
                    reason: try row.decode(String?.self, atIndex: 12), attempts: attempts,
                    retryable: (try row.decode(Int64?.self, atIndex: 14) ?? 1) != 0,
                    updatedAt: Date(milliseconds: updatedAt))
            } else {
                failure = nil
            }
        }
    }

    /// Fetches and decodes every row of a cached statement.
    func fetchMessages(_ db: Database, sql: String, arguments: StatementArguments) throws -> [LocalMessage] {
        let statement = try db.cachedStatement(sql: sql)
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        var messages: [LocalMessage] = []
        while let row = try rows.next() {
            messages.append(try decode(row))
        }
        return messages
    }
}
