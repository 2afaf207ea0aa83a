/// Where a device keeps its secrets: the keychain on iOS, an encrypted file on Linux.
///
/// Items are small byte strings under fixed names (`SecureStoreItem`). Implementations keep
/// them confidential at rest and replace them atomically; see docs/closer.md, "Secure storage".
public protocol SecureStore: Sendable {
    /// The bytes stored under `item`, or `nil` when nothing is stored.
    /// - Throws: `CloserKitError.secureStore` when the store exists but cannot be read or decrypted.
    func read(_ item: SecureStoreItem) throws(CloserKitError) -> [UInt8]?

    /// Stores `bytes` under `item`, replacing what was there.
    /// - Throws: `CloserKitError.secureStore` when the store cannot be written.
    func write(_ item: SecureStoreItem, _ bytes: [UInt8]) throws(CloserKitError)

    /// Removes `item` (nothing happens when it is absent).
    /// - Throws: `CloserKitError.secureStore` when the store cannot be written.
    func remove(_ item: SecureStoreItem) throws(CloserKitError)
}

/// The names of the secrets CloserKit keeps (a closed list: nothing else goes in the store).
public enum SecureStoreItem: String, CaseIterable, Sendable {
    /// This device's ECIES P-256 private keyset (binary Tink) and its device id.
    case deviceKey = "closer.device-key"
    /// The couple: its id, the couple keyset (binary Tink) and the recovery phrase.
    case couple = "closer.couple"
    /// The 32-byte key that seals one-time answer keys in the pending-key database.
    case pendingKeysKey = "closer.pending-keys-key"
    /// An invite this device created and has not seen accepted: its share string and code.
    case openInvite = "closer.open-invite"
}
