#if canImport(Security)
import Foundation
import Security

/// A token store in the keychain: the session as JSON in one generic-password item that never
/// leaves this device.
///
/// The item is `kSecClassGenericPassword` with `kSecAttrService` = `service` and
/// `kSecAttrAccount` = `account`, accessible `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`:
/// background refreshes can read it after the first unlock following a restart, and it is
/// neither synced to iCloud Keychain nor restored from a backup onto another device. The
/// keychain replaces the item atomically and may be used from any thread.
/// `kSecUseDataProtectionKeychain` is set on every call, so macOS behaves as iOS (the app must
/// then be signed with a keychain access group). Compiled only where the Security framework
/// exists; Linux uses `FileTokenStore`. See docs/accounts.md, "On the device".
public struct KeychainTokenStore: TokenStore {
    /// The keychain service of the session item unless another is given.
    public static let defaultService = "kindred.session"
    /// The keychain account of the session item unless another is given.
    public static let defaultAccount = "session"

    /// The `kSecAttrService` of the session item.
    public let service: String
    /// The `kSecAttrAccount` of the session item (give each app its own when apps share an access group).
    public let account: String
    /// The `kSecAttrAccessGroup` of the session item (shared with the app's extensions), or `nil` for the app's default group.
    public let accessGroup: String?

    /// A store of one session under `service` and `account`, in `accessGroup` when given (it must be one of the app's keychain access groups).
    public init(
        service: String = KeychainTokenStore.defaultService,
        account: String = KeychainTokenStore.defaultAccount,
        accessGroup: String? = nil
    ) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
    }

    /// The stored session, or `nil` when the keychain has no session item.
    /// - Throws: `KindredClientError.storage` when the item cannot be read (for example before the
    ///   first unlock after a restart) or is not a session.
    public func load() throws(KindredClientError) -> StoredSession? {
        var query = itemQuery()
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch status {
        case errSecSuccess:
            break
        case errSecItemNotFound:
            return nil
        default:
            throw failure("cannot read", status)
        }
        guard let data = result as? Data else { throw .storage("the keychain returned no data for \(itemName)") }
        do {
            return try Self.decoder.decode(StoredSession.self, from: data)
        } catch {
            throw .storage("the keychain item \(itemName) is not a stored session")
        }
    }

    /// Writes `session` to the keychain item: adds it, or updates it when it already exists.
    /// - Throws: `KindredClientError.storage` when the session cannot be encoded or the item cannot be written.
    public func save(_ session: StoredSession) throws(KindredClientError) {
        let data: Data
        do {
            data = try Self.encoder.encode(session)
        } catch {
            throw .storage("cannot encode the session")
        }
        let query = itemQuery()
        // Also given on update, so an item written with another class moves to this one.
        let attributes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        let newItem = query.merging(attributes) { _, new in new }
        var status = SecItemAdd(newItem as CFDictionary, nil)
        if status == errSecDuplicateItem {
            status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
        }
        guard status == errSecSuccess else { throw failure("cannot write", status) }
    }

    /// Deletes the keychain item; a missing item is not an error.
    /// - Throws: `KindredClientError.storage` when the item exists and cannot be deleted.
    public func clear() throws(KindredClientError) {
        let status = SecItemDelete(itemQuery() as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw failure("cannot remove", status) }
    }

    /// `service/account`, for messages.
    private var itemName: String { "\(service)/\(account)" }

    /// The attributes that name the session item: the query of every call, and the base of a new item.
    private func itemQuery() -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
            // Affects macOS only (the other platforms always use this keychain); safe everywhere.
            kSecUseDataProtectionKeychain as String: true,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    /// A storage error naming the operation, the item and the keychain's reason for `status`.
    private func failure(_ operation: String, _ status: OSStatus) -> KindredClientError {
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
        return .storage("\(operation) \(itemName) in the keychain: \(message) (OSStatus \(status))\(hint)")
    }

    // The same JSON as `session.json` (ISO 8601 dates), without the indentation.
    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
#endif
