import CloserKit
import Foundation
import KindredCrypto
import KindredTestSupport
import Testing

@Suite struct FileSecureStoreTests {
    static let cheap = Argon2id.Parameters(memoryKiB: 64, iterations: 1, parallelism: 1)

    @Test func keyFileStoreRoundTripsThroughANewInstance() throws {
        let folder = try TemporaryDirectory()
        let first = FileSecureStore(profileDirectory: folder.url, keySource: .keyFile)
        try first.write(.couple, Array("secret couple bytes".utf8))
        try first.write(.deviceKey, [1, 2, 3])
        try first.remove(.deviceKey)
        let second = FileSecureStore(profileDirectory: folder.url, keySource: .keyFile)
        #expect(try second.read(.couple) == Array("secret couple bytes".utf8))
        #expect(try second.read(.deviceKey) == nil)
    }

    @Test func filesAreOwnerOnlyAndHoldNoPlaintext() throws {
        let folder = try TemporaryDirectory()
        let store = FileSecureStore(profileDirectory: folder.url, keySource: .keyFile)
        try store.write(.couple, Array("lantern-meadow-plaintext".utf8))
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
        try FileSecureStore(profileDirectory: folder.url, keySource: .keyFile).write(.couple, [9])
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent(FileSecureStore.keyFileName))
        let path = folder.url.appendingPathComponent(FileSecureStore.keyFileName).path
        #expect(throws: CloserKitError.secureStore("\(path) is missing: the store cannot be opened without it")) {
            try FileSecureStore(profileDirectory: folder.url, keySource: .keyFile).read(.couple)
        }
    }

    @Test func aKeyFileOthersMayReadIsRefused() throws {
        let folder = try TemporaryDirectory()
        try FileSecureStore(profileDirectory: folder.url, keySource: .keyFile).write(.couple, [9])
        let path = folder.url.appendingPathComponent(FileSecureStore.keyFileName).path
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        #expect(throws: CloserKitError.secureStore("\(path) may be read by others (mode 644); chmod 600 it")) {
            try FileSecureStore(profileDirectory: folder.url, keySource: .keyFile).read(.couple)
        }
    }

    @Test func aModifiedStoreIsRefused() throws {
        let folder = try TemporaryDirectory()
        try FileSecureStore(profileDirectory: folder.url, keySource: .keyFile).write(.couple, Array("abc".utf8))
        var bytes = try folder.read(FileSecureStore.fileName)
        bytes[bytes.count - 20] ^= 0x01
        _ = try folder.write(FileSecureStore.fileName, bytes)
        let path = folder.url.appendingPathComponent(FileSecureStore.fileName).path
        #expect(throws: CloserKitError.secureStore("cannot decrypt \(path) (the key file does not match, or the file was modified)")) {
            try FileSecureStore(profileDirectory: folder.url, keySource: .keyFile).read(.couple)
        }
    }

    @Test func passphraseStoreNeedsTheSamePassphraseAndNoKeyFile() throws {
        let folder = try TemporaryDirectory()
        try FileSecureStore(profileDirectory: folder.url, keySource: .passphrase("correct horse", Self.cheap)).write(.couple, [7, 7])
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent(FileSecureStore.keyFileName).path))
        let again = FileSecureStore(profileDirectory: folder.url, keySource: .passphrase("correct horse", FileSecureStore.passphraseParameters))
        #expect(try again.read(.couple) == [7, 7])  // the header's parameters win over a new store's
        let path = folder.url.appendingPathComponent(FileSecureStore.fileName).path
        #expect(throws: CloserKitError.secureStore("cannot decrypt \(path) (wrong KINDRED_PROFILE_PASSPHRASE, or the file was modified)")) {
            try FileSecureStore(profileDirectory: folder.url, keySource: .passphrase("wrong horse", Self.cheap)).read(.couple)
        }
        #expect(throws: CloserKitError.secureStore("\(path) is protected by a passphrase; set KINDRED_PROFILE_PASSPHRASE")) {
            try FileSecureStore(profileDirectory: folder.url, keySource: .keyFile).read(.couple)
        }
    }

    @Test func theEnvironmentChoosesTheKeySource() throws {
        let folder = try TemporaryDirectory()
        let store = FileSecureStore(profileDirectory: folder.url, environment: ["KINDRED_PROFILE_PASSPHRASE": "pass"])
        try store.write(.openInvite, [1])
        let bytes = try folder.read(FileSecureStore.fileName)
        #expect(bytes[4] == 1)
        #expect(Array(bytes[21..<33]) == [0, 0, 0x4c, 0x00, 0, 0, 0, 2, 0, 0, 0, 1])  // m = 19456, t = 2, p = 1
    }
}
