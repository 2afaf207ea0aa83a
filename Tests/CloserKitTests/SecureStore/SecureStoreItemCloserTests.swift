import CloserKit
import Foundation
import KindredClient
import KindredTestSupport
import Testing

/// CloserKit's items in the shared `SecureStore`, and its failures reported as `CloserKitError.secureStore`.
@Suite struct SecureStoreItemCloserTests {
    /// A store whose every call fails with `reason`.
    struct FailingSecureStore: SecureStore {
        let reason: String
        func read(_ item: SecureStoreItem) throws(SecureStoreError) -> [UInt8]? { throw SecureStoreError(reason) }
        func write(_ item: SecureStoreItem, _ bytes: [UInt8]) throws(SecureStoreError) { throw SecureStoreError(reason) }
        func remove(_ item: SecureStoreItem) throws(SecureStoreError) { throw SecureStoreError(reason) }
    }

    /// The names on disk and in the keychain: changing one would lose every device's secret.
    @Test func closerItemsKeepTheirNames() {
        #expect(SecureStoreItem.deviceKey.rawValue == "closer.device-key")
        #expect(SecureStoreItem.couple.rawValue == "closer.couple")
        #expect(SecureStoreItem.pendingKeysKey.rawValue == "closer.pending-keys-key")
        #expect(SecureStoreItem.openInvite.rawValue == "closer.open-invite")
    }

    @Test func aStoreFailureIsACloserKitSecureStoreError() throws {
        let store = FailingSecureStore(reason: "cannot open /profile/secure-store.bin: Permission denied")
        let expected = CloserKitError.secureStore("cannot open /profile/secure-store.bin: Permission denied")
        #expect(throws: expected) { try DeviceKey.load(from: store) }
        #expect(throws: expected) { try DeviceKey.loadOrCreate(in: store) }
        #expect(throws: expected) { try CoupleKeyring.load(from: store) }
        let folder = try TemporaryDirectory()
        #expect(throws: expected) { try PendingKeyStore(url: folder.url.appendingPathComponent("p.sqlite"), secureStore: store) }
    }

    @Test func aProfileStoreRefusalReachesTheCallerAsCloserKitError() throws {
        let folder = try TemporaryDirectory()
        let store = FileSecureStore(profileDirectory: folder.url, keySource: .keyFile)
        try store.write(.couple, [9])
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent(FileSecureStore.keyFileName))
        let path = folder.url.appendingPathComponent(FileSecureStore.keyFileName).path
        let reopened = FileSecureStore(profileDirectory: folder.url, keySource: .keyFile)
        #expect(throws: CloserKitError.secureStore("\(path) is missing: the store cannot be opened without it")) {
            try CoupleKeyring.load(from: reopened)
        }
    }
}
