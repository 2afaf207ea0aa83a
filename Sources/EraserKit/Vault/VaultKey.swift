import Crypto
import KindredClient
import KindredCrypto

/// The Vault's root key: 32 random bytes kept in the device's `SecureStore` under
/// `eraser.vault-key` (the keychain on iOS, behind Face ID; `FileSecureStore` on Linux, whose
/// passphrase mode stands in for the biometric gate). Every other Vault key derives from it
/// (see `Vault`, "Key hierarchy").
public struct VaultKey: Sendable {
    /// The secure store item holding the key.
    public static let item = SecureStoreItem("eraser.vault-key")
    /// The key's length in bytes.
    public static let byteCount = 32

    /// The key.
    let key: SymmetricKey

    /// A key from its bytes.
    /// - Throws: `VaultError.corrupted` when `bytes` is not 32 bytes long.
    init(bytes: [UInt8]) throws(EraserKitError) {
        guard bytes.count == Self.byteCount else {
            throw .vault(.corrupted(what: "the Vault key", reason: "it is \(bytes.count) bytes, not \(Self.byteCount)"))
        }
        key = SymmetricKey(data: bytes)
    }

    /// The key in `store`, or `nil` when there is none.
    /// - Throws: `VaultError.locked` when the store cannot be read (a wrong or missing passphrase,
    ///   the keychain before the first unlock), `.corrupted` for a key of the wrong length.
    public static func load(from store: any SecureStore) throws(EraserKitError) -> VaultKey? {
        let bytes: [UInt8]?
        do {
            bytes = try store.read(item)
        } catch {
            throw .vault(.locked)
        }
        guard let bytes else { return nil }
        return try VaultKey(bytes: bytes)
    }

    /// Makes a new random key and stores it in `store`.
    /// - Throws: `VaultError.alreadySetUp` when the store already holds a Vault key, `.locked`
    ///   when the store cannot be read or written.
    public static func create(in store: any SecureStore) throws(EraserKitError) -> VaultKey {
        guard try load(from: store) == nil else { throw .vault(.alreadySetUp) }
        let bytes = SecureRandom.bytes(byteCount)
        do {
            try store.write(item, bytes)
        } catch {
            throw .vault(.locked)
        }
        return try VaultKey(bytes: bytes)
    }

    /// A subkey for one purpose: HKDF-SHA256 of the root key, no salt, `info` = `label`.
    func derive(_ label: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Array(label.utf8), outputByteCount: 32)
    }
}
