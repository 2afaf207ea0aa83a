/// Where a device keeps its secrets: the keychain on iOS, an encrypted file on Linux, memory in tests.
///
/// Shared by every app kit (CloserKit, SoulMateKit, …): each kit names its items
/// (`SecureStoreItem`, prefixed with the kit's name) and keeps them in the same store.
/// Items are small byte strings; implementations keep them confidential at rest and replace
/// them atomically. Layout and threat model: docs/closer.md, "Secure storage".
public protocol SecureStore: Sendable {
    /// The bytes stored under `item`, or `nil` when nothing is stored.
    /// - Throws: `SecureStoreError` when the store exists but cannot be read or decrypted.
    func read(_ item: SecureStoreItem) throws(SecureStoreError) -> [UInt8]?

    /// Stores `bytes` under `item`, replacing what was there.
    /// - Throws: `SecureStoreError` when the store cannot be written.
    func write(_ item: SecureStoreItem, _ bytes: [UInt8]) throws(SecureStoreError)

    /// Removes `item` (nothing happens when it is absent).
    /// - Throws: `SecureStoreError` when the store cannot be written.
    func remove(_ item: SecureStoreItem) throws(SecureStoreError)
}
