import Foundation
import KindredCrypto

/// One message of the local store (`local_messages`), decrypted: metadata, content, and the
/// presentation state kept in side tables (opened, failure).
///
/// Times are kept to the millisecond (the column unit): `init` rounds them down, so a message
/// read back compares equal to the one written.
public struct LocalMessage: Equatable, Sendable {
    /// Who wrote the message, seen from this phone.
    public enum Direction: String, Sendable, CaseIterable {
        /// From the partner.
        case incoming
        /// From this phone's user.
        case outgoing
    }

    /// Where the message stands with the relay.
    public enum UploadState: String, Sendable, CaseIterable {
        /// Written locally, not yet accepted by the relay (outgoing only).
        case pendingUpload
        /// Accepted by the relay (outgoing), or received and stored (incoming).
        case uploaded
        /// The upload failed (outgoing), or the envelope did not decrypt (incoming, `undecryptable`).
        case failed
    }

    /// What the message holds.
    public enum Content: Equatable, Sendable {
        /// A decrypted chat payload.
        case payload(ChatPayload)
        /// An incoming envelope that did not open; kept (Base64, as received) to retry after a key update.
        case undecryptable(envelope: String)
    }

    /// The message id: 1–64 of `A-Z a-z 0-9 - _` (the relay's rule), chosen by the sender.
    public var id: String
    /// The chat (`ChatID.make`).
    public var chatID: String
    /// The author's user id.
    public var senderID: String
    /// The addressee's user id.
    public var recipientID: String
    /// When the sender sent it (the sender's clock).
    public var sentAt: Date
    /// The content.
    public var content: Content
    /// A secret message: hidden until opened (presentation only; set for `secret` payloads).
    public var isSecret: Bool
    /// Who wrote it.
    public var direction: Direction
    /// Its state with the relay.
    public var uploadState: UploadState
    /// When this phone stored it.
    public var createdAt: Date
    /// When this phone's user opened the secret message (`markOpened`), or `nil`.
    public var openedAt: Date?
    /// The last failure (upload or decryption) and the attempts so far, or `nil`.
    public var failure: MessageFailure?

    /// A message with a decrypted payload.
    /// - Parameters:
    ///   - id: the message id (1–64 of `A-Z a-z 0-9 - _`).
    ///   - chatID: the chat.
    ///   - senderID: the author.
    ///   - recipientID: the addressee.
    ///   - sentAt: the send time (rounded down to the millisecond).
    ///   - payload: the content.
    ///   - direction: who wrote it.
    ///   - uploadState: the relay state (`pendingUpload` for a new outgoing message, `uploaded` for a received one).
    ///   - createdAt: when this phone stored it (rounded down to the millisecond).
    public init(id: String, chatID: String, senderID: String, recipientID: String, sentAt: Date,
                payload: ChatPayload, direction: Direction, uploadState: UploadState, createdAt: Date = Date()) {
        self.init(id: id, chatID: chatID, senderID: senderID, recipientID: recipientID, sentAt: sentAt,
                  content: .payload(payload), isSecret: payload.type == .secret, direction: direction,
                  uploadState: uploadState, createdAt: createdAt, openedAt: nil, failure: nil)
    }

    init(id: String, chatID: String, senderID: String, recipientID: String, sentAt: Date, content: Content,
         isSecret: Bool, direction: Direction, uploadState: UploadState, createdAt: Date, openedAt: Date?,
         failure: MessageFailure?) {
        self.id = id
        self.chatID = chatID
        self.senderID = senderID
        self.recipientID = recipientID
        self.sentAt = Date(milliseconds: sentAt.milliseconds)
        self.content = content
        self.isSecret = isSecret
        self.direction = direction
        self.uploadState = uploadState
        self.createdAt = Date(milliseconds: createdAt.milliseconds)
        self.openedAt = openedAt.map { Date(milliseconds: $0.milliseconds) }
        self.failure = failure
    }

    /// The decrypted payload, or `nil` for an undecryptable envelope.
    public var payload: ChatPayload? {
        if case .payload(let payload) = content { payload } else { nil }
    }

    /// Whether the chat shows this message hidden: an incoming secret message not opened yet.
    public var isHidden: Bool { isSecret && direction == .incoming && openedAt == nil }

    /// The paging position of this message, for `LocalMessageStore.newest(chatID:limit:before:)`.
    public var cursor: MessageCursor { MessageCursor(sentAt: sentAt, id: id) }

    /// A new message id for an outgoing message: a time-ordered UUID (version 7, RFC 9562) in lower
    /// case, its first 48 bits the milliseconds of `sentAt` (which the relay sees anyway), so the
    /// store's primary-key index grows at its end.
    public static func makeID(sentAt: Date = Date()) -> String {
        var bytes = SecureRandom.bytes(16)
        let time = UInt64(max(0, min(sentAt.milliseconds, (1 << 48) - 1)))
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: time >> (40 - 8 * UInt64(index))) }
        bytes[6] = (bytes[6] & 0x0F) | 0x70
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = Hex.encode(bytes)
        let cuts = [8, 12, 16, 20]
        var id = ""
        id.reserveCapacity(36)
        for (offset, character) in hex.enumerated() {
            if cuts.contains(offset) { id.append("-") }
            id.append(character)
        }
        return id
    }

    /// Whether `id` is a message id the relay accepts: 1–64 of `A-Z a-z 0-9 - _`.
    public static func isValidID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count) && id.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x5F
        }
    }
}

/// Why a message failed and how often it was tried (`local_message_failures`).
public struct MessageFailure: Equatable, Sendable {
    /// The last reason given (`markFailed`, `recordAttempt`, or the decryption error), or `nil`.
    public var reason: String?
    /// Upload tries (outgoing) or decryption tries (incoming) so far.
    public var attempts: Int
    /// Whether another try may succeed (`pendingUploads` skips a message marked not retryable).
    public var retryable: Bool
    /// When the row last changed.
    public var updatedAt: Date

    /// A failure record.
    public init(reason: String?, attempts: Int, retryable: Bool, updatedAt: Date) {
        self.reason = reason
        self.attempts = attempts
        self.retryable = retryable
        self.updatedAt = Date(milliseconds: updatedAt.milliseconds)
    }
}

/// A position in a chat for keyset paging: the messages before it are those with an earlier
/// `sentAt`, or the same `sentAt` and a smaller id.
public struct MessageCursor: Equatable, Hashable, Sendable {
    /// The send time of the message the page starts after.
    public var sentAt: Date
    /// Its id (orders messages sent in the same millisecond).
    public var id: String

    /// A cursor at (`sentAt`, `id`).
    public init(sentAt: Date, id: String) {
        self.sentAt = Date(milliseconds: sentAt.milliseconds)
        self.id = id
    }
}

/// An incoming envelope kept because it did not decrypt (`payload_type` `undecryptable`).
public struct UndecryptableMessage: Equatable, Sendable {
    /// The message id.
    public var id: String
    /// The chat.
    public var chatID: String
    /// The author (the partner).
    public var senderID: String
    /// The addressee (this phone's user).
    public var recipientID: String
    /// The send time.
    public var sentAt: Date
    /// The envelope as received: Base64 of nonce ‖ ciphertext ‖ tag.
    public var envelope: String
    /// Why it did not open, and the tries so far.
    public var failure: MessageFailure?
    /// When this phone stored it.
    public var createdAt: Date
}

extension Date {
    /// Milliseconds since 1970, rounded down (the store's time unit). A value within 10 µs below
    /// a whole millisecond counts as that millisecond, so `Date(milliseconds: m).milliseconds == m`
    /// despite the binary fraction of `TimeInterval`.
    var milliseconds: Int64 {
        let exact = timeIntervalSince1970 * 1000
        guard exact.isFinite else { return 0 }
        let nearest = exact.rounded()
        let value = abs(exact - nearest) < 0.01 ? nearest : exact.rounded(.down)
        return Int64(max(min(value, 9.0e15), -9.0e15))
    }

    /// The date `milliseconds` after 1970.
    init(milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
