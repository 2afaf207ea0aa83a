import Foundation
import KindredCrypto

/// What a chat message says, typed: the layer between the app (or `kindred chat`) and the wire
/// `ChatPayload`. Building a payload validates the input; parsing one reads a GIF's id back.
/// Payload types: docs/soulmate-device.md, "Payloads".
public enum ChatContent: Equatable, Sendable {
    /// Plain text (trimmed of leading and trailing white space when built).
    case text(String)
    /// One or more emoji, optionally separated by spaces.
    case emoji(String)
    /// A GIF: its URL, and its provider id when known.
    case gif(GIFLink)
    /// A secret message: hidden in the chat until the recipient opens it.
    case secret(String)
    /// A heartbeat ("thinking of you"); no value.
    case heartbeat

    /// The wire payload for this content.
    /// - Returns: a payload that passes `ChatPayload.validate()`.
    /// - Throws: `SoulMateKitError.emptyMessage` (nothing but white space), `.messageTooLong`
    ///   (over 16 KiB of UTF-8), `.notEmoji` (an emoji message with other characters).
    public func payload() throws(SoulMateKitError) -> ChatPayload {
        let payload: ChatPayload
        switch self {
        case .text(let text):
            payload = ChatPayload(type: .text, value: Self.trimmed(text))
        case .emoji(let emoji):
            let value = Self.trimmed(emoji)
            guard value.allSatisfy({ Self.isEmoji($0) || $0 == " " }) else {
                throw value.isEmpty ? .emptyMessage(kind: .emoji) : .notEmoji
            }
            payload = ChatPayload(type: .emoji, value: value)
        case .gif(let link):
            payload = ChatPayload(type: .gif, value: link.wireValue)
        case .secret(let text):
            payload = ChatPayload(type: .secret, value: Self.trimmed(text))
        case .heartbeat:
            payload = ChatPayload(type: .heartbeat, value: "")
        }
        try Self.check(payload)
        return payload
    }

    /// Reads a received (or stored) payload.
    /// - Parameter payload: a decrypted payload.
    /// - Throws: `SoulMateKitError.emptyMessage` / `.messageTooLong` for a payload breaking the
    ///   wire rules, `.invalidGIF` for a GIF whose value is not an https URL. An emoji message is
    ///   not checked for emoji only: other clients may be less strict.
    public init(payload: ChatPayload) throws(SoulMateKitError) {
        try Self.check(payload)
        switch payload.type {
        case .text: self = .text(payload.value)
        case .emoji: self = .emoji(payload.value)
        case .gif: self = .gif(try GIFLink(wireValue: payload.value))
        case .secret: self = .secret(payload.value)
        case .heartbeat: self = .heartbeat
        }
    }

    /// The wire format's rules (`ChatPayload.validate()`) as SoulMateKit errors.
    /// - Throws: `.messageTooLong` over 16 KiB; `.emptyMessage` for an empty value of any kind but heartbeat.
    static func check(_ payload: ChatPayload) throws(SoulMateKitError) {
        let bytes = payload.value.utf8.count
        guard bytes <= ChatPayload.maximumValueBytes else {
            throw .messageTooLong(bytes: bytes, limit: ChatPayload.maximumValueBytes)
        }
        guard payload.type == .heartbeat || !payload.value.isEmpty else { throw .emptyMessage(kind: payload.type) }
    }

    static func trimmed(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether a character is an emoji: an emoji-presentation scalar (😀, 🇹🇷, 👍🏽, 👩‍❤️‍👨), or
    /// a non-ASCII emoji scalar shown as text by default (❤, ☺). Digits, `#` and `*` only as keycaps (1️⃣).
    static func isEmoji(_ character: Character) -> Bool {
        guard let first = character.unicodeScalars.first else { return false }
        if first.properties.isEmojiPresentation { return true }
        guard first.properties.isEmoji else { return false }
        if first.isASCII {
            return character.unicodeScalars.contains { $0.value == 0x20E3 }
        }
        return true
    }
}
