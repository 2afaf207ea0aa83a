import Foundation
import KindredClient
import KindredCrypto
import KindredTestSupport
import Testing

@testable import EraserKit

@Suite struct VaultKeyTests {
    @Test func openingWithoutAVaultSaysNotSetUp() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: EraserKitError.vault(.notSetUp)) {
            try Vault.open(profileDirectory: directory.url, secureStore: InMemorySecureStore(), notifier: InMemoryLocalNotifier())
        }
    }

    @Test func setUpStoresA32ByteKeyAndRefusesASecondSetUp() throws {
        let directory = try TemporaryDirectory()
        let store = InMemorySecureStore()
        _ = try Vault.setUp(profileDirectory: directory.url, secureStore: store, notifier: InMemoryLocalNotifier())
        #expect(try store.read(VaultKey.item)?.count == 32)
        #expect(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("vault/keyset.enc").path))
        #expect(throws: EraserKitError.vault(.alreadySetUp)) {
            try Vault.setUp(profileDirectory: directory.url, secureStore: store, notifier: InMemoryLocalNotifier())
        }
        // A new store (the key lost) must not silently make a new Vault over the old one.
        #expect(throws: EraserKitError.vault(.alreadySetUp)) {
            try Vault.setUp(profileDirectory: directory.url, secureStore: InMemorySecureStore(), notifier: InMemoryLocalNotifier())
        }
    }

    @Test func aLostKeyAndAWrongKeyAreTypedErrors() throws {
        let fixture = try VaultFixture()
        let item = try fixture.vault.add(bytes: [1, 2, 3], item: VaultFixture.photo("a"))
        #expect(throws: EraserKitError.vault(.keyLost)) {
            try Vault.open(profileDirectory: fixture.profile, secureStore: InMemorySecureStore(), notifier: fixture.notifier)
        }
        let other = InMemorySecureStore()
        try other.write(VaultKey.item, SecureRandom.bytes(32))
        #expect(throws: EraserKitError.vault(.wrongKey)) {
            try Vault.open(profileDirectory: fixture.profile, secureStore: other, notifier: fixture.notifier)
        }
        try other.write(VaultKey.item, [1, 2, 3])
        #expect(throws: EraserKitError.vault(.corrupted(what: "the Vault key", reason: "it is 3 bytes, not 32"))) {
            try Vault.open(profileDirectory: fixture.profile, secureStore: other, notifier: fixture.notifier)
        }
        // The right key still opens everything.
        #expect(try fixture.reopen().contents(item.id) == [1, 2, 3])
    }

    @Test func aPassphraseStoreIsTheLockWithoutThePassphraseTheVaultIsLocked() throws {
        let directory = try TemporaryDirectory()
        let parameters = Argon2id.Parameters(memoryKiB: 64, iterations: 1, parallelism: 1)
        let store = FileSecureStore(profileDirectory: directory.url, keySource: .passphrase("correct horse", parameters))
        let vault = try Vault.setUp(profileDirectory: directory.url, secureStore: store, notifier: InMemoryLocalNotifier())
        let item = try vault.add(bytes: Array("secret".utf8), item: VaultFixture.photo("p"))

        let wrong = FileSecureStore(profileDirectory: directory.url, keySource: .passphrase("wrong horse", parameters))
        #expect(throws: EraserKitError.vault(.locked)) {
            try Vault.open(profileDirectory: directory.url, secureStore: wrong, notifier: InMemoryLocalNotifier())
        }
        let noPassphrase = FileSecureStore(profileDirectory: directory.url, keySource: .keyFile)
        #expect(throws: EraserKitError.vault(.locked)) {
            try Vault.open(profileDirectory: directory.url, secureStore: noPassphrase, notifier: InMemoryLocalNotifier())
        }
        let again = FileSecureStore(profileDirectory: directory.url, keySource: .passphrase("correct horse", parameters))
        let reopened = try Vault.open(profileDirectory: directory.url, secureStore: again, notifier: InMemoryLocalNotifier())
        #expect(try reopened.contents(item.id) == Array("secret".utf8))
    }

    @Test func aSetUpInterruptedBeforeTheKeysetIsFinishedOnOpen() throws {
        let directory = try TemporaryDirectory()
        let store = InMemorySecureStore()
        _ = try VaultKey.create(in: store)
        let vault = try Vault.open(profileDirectory: directory.url, secureStore: store, notifier: InMemoryLocalNotifier())
        let item = try vault.add(bytes: [7], item: VaultFixture.photo("p"))
        #expect(try Vault.open(profileDirectory: directory.url, secureStore: store, notifier: InMemoryLocalNotifier())
            .contents(item.id) == [7])
    }
}
