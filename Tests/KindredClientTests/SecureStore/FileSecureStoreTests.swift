import Foundation
import KindredClient
import KindredCrypto
import KindredTestSupport
import Testing

/// `FileSecureStore`: round trips, file modes, refusals, and the two key sources.
@Suite struct FileSecureStoreTests {
    static let cheap = Argon2id.Parameters(memoryKiB: 64, iterations: 1, parallelism: 1)
    static let secret = SecureStoreItem("test.secret")
    static let other = SecureStoreItem("test.other")

    @Test func keyFileStoreRoundTripsThroughANewInstance() throws {
        let folder = try TemporaryDirectory()
        let first = FileSecureStore(profileDirectory: folder.url, keySource: .keyFile)
        try first.write(Self.secret, Array("secret couple bytes".utf8))
        try first.write(Self.other, [1, 2, 3])
        try first.remove(Self.other)
        let second = FileSecureStore(profileDirectory: folder.url, keySource: .keyFile)
        #expect(try second.read(Self.secret) == Array("secret couple bytes".utf8))
        #expect(try second.read(Self.other) == nil)
    }

    @Test func filesAreOwnerOnlyAndHoldNoPlaintext() throws {
        let folder = try TemporaryDirectory()
        let store = FileSecureStore(profileDirectory: folder.url, keySource: .keyFile)
        try store.write(Self.secret, Array("lantern-meadow-plaintext".utf8))
        for name in [FileSecureStore.fileName, FileSecureStore.keyFileName] {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.url.appendingPathComponent(name).path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
        }
        let bytes = try folder.read(FileSecureStore.fileName)
        #expect(Array(bytes.prefix(5)) == Array("KSS1".utf8) + [0])
        #expect(!Data(bytes).contains(Data("lantern-meadow-plaintext".utf8)))
        #expect(try folder.read(FileSecureStore.keyFileName).count == 32)
    }

    @Test func aStoreWithoutItsKeyFileIsRefused() throws {
        let folder = try TemporaryDirectory()
        try FileSecureStore(profileDirectory: folder.url, keySource: .keyFile).write(Self.secret, [9])
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent(FileSecureStore.keyFileName))
        let path = folder.url.appendingPathComponent(FileSecureStore.keyFileName).path
        #expect(throws: SecureStoreError("\(path) is missing: the store cannot be opened without it")) {
            try FileSecureStore(profileDirectory: folder.url, keySource: .keyFile).read(Self.secret)
        }
    }

    @Test func aKeyFileOthersMayReadIsRefused() throws {
        let folder = try TemporaryDirectory()
        try FileSecureStore(profileDirectory: folder.url, keySource: .keyFile).write(Self.secret, [9])
        let path = folder.url.appendingPathComponent(FileSecureStore.keyFileName).path
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        #expect(throws: SecureStoreError("\(path) may be read by others (mode 644); chmod 600 it")) {
            try FileSecureStore(profileDirectory: folder.url, keySource: .keyFile).read(Self.secret)
        }
    }

    @Test func aModifiedStoreIsRefused() throws {
        let folder = try TemporaryDirectory()
        try FileSecureStore(profileDirectory: folder.url, keySource: .keyFile).write(Self.secret, Array("abc".utf8))
        var bytes = try folder.read(FileSecureStore.fileName)
        bytes[bytes.count - 20] ^= 0x01
        _ = try folder.write(FileSecureStore.fileName, bytes)
        let path = folder.url.appendingPathComponent(FileSecureStore.fileName).path
        #expect(throws: SecureStoreError("cannot decrypt \(path) (the key file does not match, or the file was modified)")) {
            try FileSecureStore(profileDirectory: folder.url, keySource: .keyFile).read(Self.secret)
        }
    }

    @Test func passphraseStoreNeedsTheSamePassphraseAndNoKeyFile() throws {
        let folder = try TemporaryDirectory()
        try FileSecureStore(profileDirectory: folder.url, keySource: .passphrase("correct horse", Self.cheap)).write(Self.secret, [7, 7])
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent(FileSecureStore.keyFileName).path))
        let again = FileSecureStore(profileDirectory: folder.url, keySource: .passphrase("correct horse", FileSecureStore.passphraseParameters))
        #expect(try again.read(Self.secret) == [7, 7])  // the header's parameters win over a new store's
        let path = folder.url.appendingPathComponent(FileSecureStore.fileName).path
        #expect(throws: SecureStoreError("cannot decrypt \(path) (wrong KINDRED_PROFILE_PASSPHRASE, or the file was modified)")) {
            try FileSecureStore(profileDirectory: folder.url, keySource: .passphrase("wrong horse", Self.cheap)).read(Self.secret)
        }
        #expect(throws: SecureStoreError("\(path) is protected by a passphrase; set KINDRED_PROFILE_PASSPHRASE")) {
            try FileSecureStore(profileDirectory: folder.url, keySource: .keyFile).read(Self.secret)
        }
    }

    @Test func theEnvironmentChoosesTheKeySource() throws {
        let folder = try TemporaryDirectory()
        let store = FileSecureStore(profileDirectory: folder.url, environment: ["KINDRED_PROFILE_PASSPHRASE": "pass"])
        try store.write(Self.secret, [1])
        let bytes = try folder.read(FileSecureStore.fileName)
        #expect(bytes[4] == 1)
        #expect(Array(bytes[21..<33]) == [0, 0, 0x4c, 0x00, 0, 0, 0, 2, 0, 0, 0, 1])  // m = 19456, t = 2, p = 1
    }
}
