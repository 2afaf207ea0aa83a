import Foundation

/// What a SoulMate chat message carries once decrypted: a kind and its value, encoded as
/// the JSON object `{"type":"text","value":"…"}` (keys sorted, no whitespace).
/// Spec: `docs/wire-formats.md`, "SoulMate chat envelopes".
public struct ChatPayload: Codable, Equatable, Sendable {
    /// The message kinds SoulMate's clients send.
    public enum Kind: String, Codable, CaseIterable, Sendable {
        /// Plain text.
        case text
        /// One or more emoji.
        case emoji
        /// A GIF, by URL.
        case gif
        /// A secret message, hidden until tapped.
        case secret
        /// A heartbeat ("thinking of you"); its value may be empty.
        case heartbeat
    }

    /// The largest payload value, in UTF-8 bytes.
    public static let maximumValueBytes = 16 * 1024

    /// The message kind.
    public var type: Kind
    /// The text, emoji, GIF URL or secret; empty for a heartbeat.
    public var value: String

    /// Creates a payload.
    public init(type: Kind, value: String) {
        self.type = type
        self.value = value
    }

    /// Checks the payload against SoulMate's rules: a value within the size limit, and
    /// non-empty for every kind but `heartbeat`.
    /// - Throws: `KindredCryptoError.malformed` or `.tooLong`.
    public func validate() throws(KindredCryptoError) {
        guard value.utf8.count <= Self.maximumValueBytes else {
            throw .tooLong(format: "soulmate-payload", limit: Self.maximumValueBytes)
        }
        if type != .heartbeat && value.isEmpty {
            throw .malformed(format: "soulmate-payload", reason: "\(type.rawValue) message has an empty value")
        }
    }

    /// The payload's JSON bytes (sorted keys, no whitespace).
    /// - Returns: UTF-8 JSON.
    /// - Throws: `KindredCryptoError` when the payload breaks SoulMate's rules.
    public func encoded() throws(KindredCryptoError) -> [UInt8] {
        try validate()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(self))
        } catch {
            throw .malformed(format: "soulmate-payload", reason: "cannot encode")
        }
    }

    /// Decodes and validates payload JSON.
    /// - Parameter bytes: UTF-8 JSON as produced by `encoded()` (any key order is accepted).
    /// - Returns: the payload.
    /// - Throws: `KindredCryptoError.malformed` for invalid JSON, a missing field or an unknown kind.
    public init(decoding bytes: [UInt8]) throws(KindredCryptoError) {
        let decoded: ChatPayload
        do {
            decoded = try JSONDecoder().decode(ChatPayload.self, from: Data(bytes))
        } catch DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty {
            throw .malformed(format: "soulmate-payload", reason: "unknown message type")
        } catch {
            throw .malformed(format: "soulmate-payload", reason: "not a chat payload object")
        }
        try decoded.validate()
        self = decoded
    }
}
