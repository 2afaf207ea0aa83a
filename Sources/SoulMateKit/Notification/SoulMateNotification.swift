import KindredCrypto

/// The notification service extension's entry: turns a push's data into the preview shown on
/// the lock screen, decrypting the envelope on the phone when the push carries it.
///
/// The relay puts `envelope`, `senderId`, `messageId` and `keyVersion` in the push data when
/// the envelope fits in a push; otherwise there is no `envelope` and the preview is the generic
/// "New message". Nothing here throws or traps: any failure (no key for the sender, a modified
/// or truncated envelope, a payload of an unknown type) gives the generic preview.
/// See docs/soulmate-device.md, "Notification extension".
public enum SoulMateNotification {
    /// The push data keys the relay sets.
    public enum DataKey {
        /// The envelope: Base64 of nonce ‖ ciphertext ‖ tag (`SoulMateChatKey.open`).
        public static let envelope = "envelope"
        /// The sender's user id.
        public static let senderID = "senderId"
        /// The message id.
        public static let messageID = "messageId"
        /// The sender's identity-key version the envelope was sealed under.
        public static let keyVersion = "keyVersion"
    }

    /// The longest text body shown, in characters (longer text ends with "…").
    public static let maximumBodyLength = 180

    /// What the notification shows.
    public struct Preview: Equatable, Sendable {
        /// The title: the sender's name when given, else "SoulMate".
        public var title: String
        /// The body: the message, or a neutral line (secret, GIF, heartbeat, generic).
        public var body: String
        /// The decrypted payload (a secret one included, though not shown), or `nil` for the generic preview.
        public var payload: ChatPayload?
        /// The message id from the push data, when present.
        public var messageID: String?
        /// The sender from the push data, when present.
        public var senderID: String?
        /// The key version from the push data, when present.
        public var keyVersion: String?

        /// Whether this is the generic "New message" preview (no envelope, or it did not open).
        public var isGeneric: Bool { payload == nil }
    }

    /// Builds the preview of a push.
    /// - Parameters:
    ///   - payload: the push's data (string values).
    ///   - keyLookup: the pair key for a sender id, or `nil` when this phone has none (read from
    ///     the secure store shared with the app, `crypto.shared.<partnerUID>`).
    ///   - strings: the user's language.
    ///   - senderName: the partner's display name, for the title, when the extension knows it.
    /// - Returns: the preview; generic when anything is missing or does not open.
    public static func decrypt(payload: [String: String], keyLookup: (String) -> SoulMateChatKey?,
                               strings: SoulMateStrings, senderName: String? = nil) -> Preview {
        let senderID = payload[DataKey.senderID]
        var preview = Preview(
            title: senderName.flatMap { $0.isEmpty ? nil : $0 } ?? strings[.notificationTitle],
            body: strings[.notificationNewMessage], payload: nil,
            messageID: payload[DataKey.messageID], senderID: senderID, keyVersion: payload[DataKey.keyVersion])
        guard let envelope = payload[DataKey.envelope], let senderID, !senderID.isEmpty,
              let key = keyLookup(senderID),
              let message = try? key.open(envelope)
        else {
            return preview
        }
        preview.payload = message
        switch message.type {
        case .text, .emoji:
            preview.body = shortened(message.value)
        case .gif:
            preview.body = strings[.notificationGIF]
        case .secret:
            preview.body = strings[.notificationSecret]
        case .heartbeat:
            preview.body = strings[.notificationHeartbeat]
        }
        return preview
    }

    static func shortened(_ text: String) -> String {
        guard text.count > maximumBodyLength else { return text }
        return String(text.prefix(maximumBodyLength - 1)) + "…"
    }
}
