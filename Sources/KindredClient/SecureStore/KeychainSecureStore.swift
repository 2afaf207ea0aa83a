#if canImport(Security)
import Foundation
import Security

/// The Apple-platform secure store: each `SecureStoreItem` is one generic-password item in the
/// data protection keychain, readable once the device has been unlocked and never leaving it.
///
/// Every item is `kSecClassGenericPassword` with `kSecAttrService` = `service` and
/// `kSecAttrAccount` = the item's name (`closer.device-key`, `soulmate.identity`, …), accessible
/// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`: background work can read it after the
/// first unlock following a restart, and it is neither synced to iCloud Keychain nor restored
/// from a backup onto another device. The keychain replaces an item atomically and may be used
/// from any thread. `kSecUseDataProtectionKeychain` is set on every call, so macOS behaves as
/// iOS (the app must then be signed with a keychain access group). Compiled only where the
/// Security framework exists; Linux uses `FileSecureStore`. See docs/closer.md, "Secure storage".
public struct KeychainSecureStore: SecureStore {
    /// The keychain service of every item unless another is given. Its value predates the store's
    /// move to KindredClient and stays, so the items Closer stored before remain readable; each app
    /// has its own keychain, and item names carry their kit's prefix, so apps never collide.
    public static let defaultService = "kindred.closer.secure-store"

    /// The `kSecAttrService` of every item.
    public let service: String
    /// The `kSecAttrAccessGroup` of every item (shared with the app's extensions), or `nil` for the app's default group.
    public let accessGroup: String?

    /// A store under `service`, in `accessGroup` when given (it must be one of the app's keychain access groups).
    public init(service: String = KeychainSecureStore.defaultService, accessGroup: String? = nil) {
        self.service = service
        self.accessGroup = accessGroup
    }

    /// The bytes under `item`, or `nil` when the keychain has no such item.
    /// - Throws: `SecureStoreError` with the keychain's status when the item cannot be read
    ///   (for example before the first unlock after a restart).
    public func read(_ item: SecureStoreItem) throws(SecureStoreError) -> [UInt8]? {
        var query = itemQuery(item)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch status {
        case errSecSuccess:
            guard let data = result as? Data else {
                throw SecureStoreError("the keychain returned no data for \(item.rawValue)")
            }
            return [UInt8](data)
        case errSecItemNotFound:
            return nil
        default:
            throw failure("cannot read", item, status)
        }
    }

    /// Stores `bytes` under `item`: adds the keychain item, or updates it when it already exists.
    /// - Throws: `SecureStoreError` with the keychain's status when the item cannot be written.
    public func write(_ item: SecureStoreItem, _ bytes: [UInt8]) throws(SecureStoreError) {
        let query = itemQuery(item)
        // Also given on update, so an item written with another class moves to this one.
        let attributes: [String: Any] = [
            kSecValueData as String: Data(bytes),
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        let newItem = query.merging(attributes) { _, new in new }
        var status = SecItemAdd(newItem as CFDictionary, nil)
        if status == errSecDuplicateItem {
            if bytes.isEmpty {
                // SecItemUpdate is reported to keep the old bytes when given empty data: replace the item.
                status = SecItemDelete(query as CFDictionary)
                if status == errSecSuccess || status == errSecItemNotFound {
                    status = SecItemAdd(newItem as CFDictionary, nil)
                }
            } else {
                status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
            }
        }
        guard status == errSecSuccess else { throw failure("cannot write", item, status) }
    }

    /// Deletes the keychain item under `item`; a missing item is not an error.
    /// - Throws: `SecureStoreError` with the keychain's status when the item cannot be deleted.
    public func remove(_ item: SecureStoreItem) throws(SecureStoreError) {
        let status = SecItemDelete(itemQuery(item) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw failure("cannot remove", item, status)
        }
    }

    /// The attributes that name `item`'s keychain item: the query of every call, and the base of a new item.
    private func itemQuery(_ item: SecureStoreItem) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: item.rawValue,
            // Affects macOS only (the other platforms always use this keychain); safe everywhere.
            kSecUseDataProtectionKeychain as String: true,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    /// A secure-store error naming the operation, the item and the keychain's reason for `status`.
    private func failure(_ operation: String, _ item: SecureStoreItem, _ status: OSStatus) -> SecureStoreError {
        let message = SecCopyErrorMessageString(status, nil) as String? ?? "unknown keychain error"
        let hint: String
        switch status {
        case errSecInteractionNotAllowed:
            hint = "; the device has not been unlocked since it started"
        case errSecMissingEntitlement:
            hint = "; the app is not signed with a keychain access group (needed on macOS too)"
        default:
            hint = ""
        }
        return SecureStoreError("\(operation) \(item.rawValue) in the keychain: \(message) (OSStatus \(status))\(hint)")
    }
}
#endif
