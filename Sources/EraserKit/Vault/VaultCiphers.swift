import Crypto
import Foundation
import KindredCrypto

/// The Vault's keys below the root key, and the associated data that binds each ciphertext to
/// its item and role (key hierarchy: `Vault`'s documentation).
struct VaultCiphers: Sendable {
    /// HKDF labels of the subkeys.
    static let keysetWrapLabel = "ex-eraser.vault.keyset-wrap.v1"
    static let metadataLabel = "ex-eraser.vault.metadata.v1"
    static let originalIDLabel = "ex-eraser.vault.original-id.v1"
    /// Associated data of the wrapped keyset.
    static let keysetAssociatedData = Array("ex-eraser.vault.keyset.v1".utf8)

    /// The streaming AEAD of media files and thumbnails (the unwrapped keyset).
    let streaming: TinkStreamingAEAD
    /// AES-256-GCM key of `vault_items.metadata`.
    let metadataKey: SymmetricKey
    /// HMAC-SHA256 key of `vault_items.original_id`.
    let originalIDKey: SymmetricKey

    /// The ciphers of a Vault whose wrapped keyset is `wrappedKeyset`.
    /// - Throws: `VaultError.wrongKey` when the root key does not open the keyset, `.corrupted`
    ///   when the opened keyset is not a streaming keyset.
    init(rootKey: VaultKey, wrappedKeyset: [UInt8]) throws(EraserKitError) {
        let serialized: [UInt8]
        do {
            let box = try AES.GCM.SealedBox(combined: wrappedKeyset)
            serialized = Array(try AES.GCM.open(box, using: rootKey.derive(Self.keysetWrapLabel),
                                                authenticating: Self.keysetAssociatedData))
        } catch {
            throw .vault(.wrongKey)
        }
        do {
            streaming = try TinkStreamingAEAD(keyset: try Keyset(serialized: serialized))
        } catch {
            throw .vault(.corrupted(what: "the Vault keyset", reason: error.description))
        }
        metadataKey = rootKey.derive(Self.metadataLabel)
        originalIDKey = rootKey.derive(Self.originalIDLabel)
    }

    /// A new streaming keyset (`AES256_GCM_HKDF_1MB`), sealed under the root key's wrap subkey.
    static func newWrappedKeyset(rootKey: VaultKey) throws(EraserKitError) -> [UInt8] {
        let keyset = Keyset.generateAES256GCMHKDF1MB()
        do {
            let box = try AES.GCM.seal(keyset.serialized(), using: rootKey.derive(keysetWrapLabel),
                                       authenticating: keysetAssociatedData)
            guard let combined = box.combined else { throw VaultCipherFailure() }
            return Array(combined)
        } catch {
            throw .vault(.corrupted(what: "the new Vault keyset", reason: "cannot seal it: \(error)"))
        }
    }

    // MARK: - Associated data

    /// A ciphertext's role: media and thumbnails of one item must not be swapped either.
    enum Role: String {
        case media = "ex-eraser.vault.media.v1"
        case thumbnail = "ex-eraser.vault.thumbnail.v1"
        case metadata = "ex-eraser.vault.metadata.v1"
    }

    /// `role label ‖ 0x00 ‖ item id`: binds a ciphertext to its item and role, so a file renamed
    /// to another item's name, or a thumbnail put in place of a media file, fails to open.
    static func associatedData(_ role: Role, _ id: VaultItemID) -> [UInt8] {
        Array(role.rawValue.utf8) + [0] + Array(id.rawValue.utf8)
    }

    // MARK: - Metadata and original ids

    /// The metadata column's text: `v1:` then Base64 of AES-256-GCM `nonce ‖ ciphertext ‖ tag`
    /// over the JSON of `payload`, with the item's metadata associated data.
    func sealMetadata(_ payload: SealedItemPayload, id: VaultItemID) throws(EraserKitError) -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = .sortedKeys
        do {
            let json = try encoder.encode(payload)
            let box = try AES.GCM.seal(json, using: metadataKey,
                                       authenticating: Self.associatedData(.metadata, id))
            guard let combined = box.combined else { throw VaultCipherFailure() }
            return "v1:" + combined.base64EncodedString()
        } catch {
            throw .vault(.invalidInput("the metadata cannot be encoded: \(error)"))
        }
    }

    /// Opens a metadata column sealed by `sealMetadata` for item `id`.
    /// - Throws: `VaultError.corrupted` when it is not ours, was modified or moved from another row.
    func openMetadata(_ text: String, id: VaultItemID) throws(EraserKitError) -> SealedItemPayload {
        let what = "the metadata of item \(id)"
        guard text.hasPrefix("v1:"), let combined = Data(base64Encoded: String(text.dropFirst(3))) else {
            throw .vault(.corrupted(what: what, reason: "it is not a sealed v1 value"))
        }
        let json: Data
        do {
            json = try AES.GCM.open(try AES.GCM.SealedBox(combined: combined), using: metadataKey,
                                    authenticating: Self.associatedData(.metadata, id))
        } catch {
            throw .vault(.corrupted(what: what, reason: "it fails authentication"))
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        do {
            return try decoder.decode(SealedItemPayload.self, from: json)
        } catch {
            throw .vault(.corrupted(what: what, reason: "its JSON does not parse: \(error)"))
        }
    }

    /// `vault_items.original_id`: hex HMAC-SHA256 of the original id, so the column supports
    /// look-ups without naming the original (a calendar UID or a file name can say a lot).
    func originalIDDigest(_ originalID: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array(originalID.utf8), using: originalIDKey)
        return mac.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}

/// What `vault_items.metadata` holds once opened.
struct SealedItemPayload: Codable, Equatable {
    var originalID: String
    var byteCount: Int64
    var metadata: VaultItemMetadata
}

/// A sealed box without its combined form (cannot happen with 12-byte nonces).
private struct VaultCipherFailure: Error {}
