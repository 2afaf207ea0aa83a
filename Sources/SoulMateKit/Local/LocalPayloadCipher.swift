import Crypto
import Foundation

/// The encryption at rest of `local_messages.payload_value`: AES-256-GCM under the store's local
/// key, `combined` form (12-byte nonce ‖ ciphertext ‖ 16-byte tag), with the row's immutable
/// metadata as associated data, so a value moved to another row, or a row whose id, chat,
/// sender, recipient, time, direction, type or secret flag was edited, no longer opens.
/// Spec: docs/soulmate-device.md, "Encryption at rest".
struct LocalPayloadCipher: Sendable {
    /// The associated data's leading label (domain separation and version).
    static let label = "soulmate-local-v1"
    /// The key-check row's plaintext and label: opening it proves the key is this store's.
    static let keyCheckLabel = "soulmate-local-key-check-v1"

    let key: SymmetricKey

    /// The metadata a sealed value is bound to.
    struct Binding {
        var id: String
        var chatID: String
        var senderID: String
        var recipientID: String
        var sentAt: Int64
        var direction: String
        var payloadType: String
        var isSecret: Bool

        /// `"soulmate-local-v1"` then each field as a 4-byte big-endian length and its UTF-8 bytes:
        /// id, chat id, sender, recipient, sent_at (decimal milliseconds), direction, payload_type,
        /// is_secret (`0`/`1`). Lengths make the encoding unambiguous whatever the ids contain.
        var associatedData: [UInt8] {
            let sentAtText = String(sentAt)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(LocalPayloadCipher.label.utf8.count + 8 * 4 + id.utf8.count + chatID.utf8.count
                + senderID.utf8.count + recipientID.utf8.count + sentAtText.utf8.count + direction.utf8.count
                + payloadType.utf8.count + 1)
            bytes.append(contentsOf: LocalPayloadCipher.label.utf8)
            Self.append(id, to: &bytes)
            Self.append(chatID, to: &bytes)
            Self.append(senderID, to: &bytes)
            Self.append(recipientID, to: &bytes)
            Self.append(sentAtText, to: &bytes)
            Self.append(direction, to: &bytes)
            Self.append(payloadType, to: &bytes)
            Self.append(isSecret ? "1" : "0", to: &bytes)
            return bytes
        }

        private static func append(_ field: String, to bytes: inout [UInt8]) {
            let count = UInt32(truncatingIfNeeded: field.utf8.count)
            bytes.append(UInt8(truncatingIfNeeded: count >> 24))
            bytes.append(UInt8(truncatingIfNeeded: count >> 16))
            bytes.append(UInt8(truncatingIfNeeded: count >> 8))
            bytes.append(UInt8(truncatingIfNeeded: count))
            bytes.append(contentsOf: field.utf8)
        }
    }

    /// Seals a payload value for the row `binding` describes.
    /// - Returns: nonce ‖ ciphertext ‖ tag.
    /// - Throws: `SoulMateKitError.storeWrite` if AES-GCM fails (it does not for valid keys).
    func seal(_ value: some DataProtocol, for binding: Binding) throws(SoulMateKitError) -> Data {
        do {
            let box = try AES.GCM.seal(value, using: key, authenticating: binding.associatedData)
            guard let combined = box.combined else { throw SoulMateKitError.storeWrite("AES-GCM gave no combined form") }
            return combined
        } catch {
            throw .storeWrite("cannot encrypt message \(binding.id): \(error)")
        }
    }

    /// Opens a stored value.
    /// - Returns: the plaintext value.
    /// - Throws: `SoulMateKitError.corruptRow` when the value does not open with this key and this metadata.
    func open(_ sealed: Data, for binding: Binding) throws(SoulMateKitError) -> Data {
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            return try AES.GCM.open(box, using: key, authenticating: binding.associatedData)
        } catch {
            throw .corruptRow(id: binding.id, reason: "the payload does not decrypt under this row's metadata")
        }
    }

    /// The value of the store's key-check row: the label sealed with itself as associated data.
    func sealKeyCheck() throws(SoulMateKitError) -> Data {
        do {
            let label = Array(Self.keyCheckLabel.utf8)
            guard let combined = try AES.GCM.seal(label, using: key, authenticating: label).combined else {
                throw SoulMateKitError.storeWrite("AES-GCM gave no combined form")
            }
            return combined
        } catch {
            throw .storeWrite("cannot write the key check: \(error)")
        }
    }

    /// Whether `sealed` is this key's key-check value.
    func opensKeyCheck(_ sealed: Data) -> Bool {
        let label = Array(Self.keyCheckLabel.utf8)
        guard let box = try? AES.GCM.SealedBox(combined: sealed),
              let opened = try? AES.GCM.open(box, using: key, authenticating: label) else { return false }
        return Array(opened) == label
    }
}
