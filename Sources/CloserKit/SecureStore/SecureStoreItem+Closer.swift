import KindredClient

/// The secrets CloserKit keeps in the device's `SecureStore` (nothing else of Closer goes there).
extension SecureStoreItem {
    /// This device's ECIES P-256 private keyset (binary Tink) and its device id.
    public static let deviceKey = SecureStoreItem("closer.device-key")
    /// The couple: its id, the couple keyset (binary Tink) and the recovery phrase.
    public static let couple = SecureStoreItem("closer.couple")
    /// The 32-byte key that seals one-time answer keys in the pending-key database.
    public static let pendingKeysKey = SecureStoreItem("closer.pending-keys-key")
    /// An invite this device created and has not seen accepted: its share string and code.
    public static let openInvite = SecureStoreItem("closer.open-invite")
}
