import Foundation
import KindredClient
import KindredCrypto
import KindredTestSupport
import Testing

/// `secure-store.bin` stays byte-compatible: stores written by CloserKit's `FileSecureStore`,
/// before the store moved to KindredClient, open and keep their header (docs/closer.md, "Secure storage").
///
/// The fixtures were made by an independent Python writer of the format (cryptography's AES-GCM,
/// argon2-cffi's Argon2id), itself checked by decrypting profiles written by the CloserKit build
/// that predates the move. Fixed key, IV and salt, so the bytes never change.
@Suite struct FileSecureStoreFormatTests {
    /// Key-file mode, key = 0x00…0x1f, IV = 0xa0…0xab; `closer.couple` = "lantern meadow", `closer.device-key` = 01 02 03.
    static let keyFileStore =
        "4b53533100a0a1a2a3a4a5a6a7a8a9aaabe6151f412ab867cd4c06e8a67716a5de70ac577cf3d93609ee6006eb1aca116ea576569cc3"
            + "4d20582db260ad7f13e09c6a70233162d01a7d405c0841d808cad13f82691f0e2dfcde947c1e"
    static let keyFileKey = Array(UInt8(0)...UInt8(31))
    /// Passphrase mode ("correct horse"), salt = 0x10…0x1f, m = 64, t = 1, p = 1, IV = 0xb0…0xbb; `closer.open-invite` = "invite".
    static let passphraseStore =
        "4b53533101101112131415161718191a1b1c1d1e1f000000400000000100000001b0b1b2b3b4b5b6b7b8b9babb8d4bb8025ab02a955e"
            + "46119d0c161bb294b3050292a70df88d294edb2b97bff88a9bfc031f7d2aec0627553efa47"

    @Test func aKeyFileStoreWrittenBeforeTheMoveOpens() throws {
        let folder = try TemporaryDirectory()
        try folder.write(FileSecureStore.fileName, Hex.decode(Self.keyFileStore))
        let keyPath = try folder.write(FileSecureStore.keyFileName, Self.keyFileKey).path
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyPath)
        let store = FileSecureStore(profileDirectory: folder.url, keySource: .keyFile)
        #expect(try store.read(SecureStoreItem("closer.couple")) == Array("lantern meadow".utf8))
        #expect(try store.read(SecureStoreItem("closer.device-key")) == [1, 2, 3])
        #expect(try store.read(SecureStoreItem("closer.open-invite")) == nil)
    }

    @Test func aPassphraseStoreWrittenBeforeTheMoveOpensAndKeepsItsHeader() throws {
        let folder = try TemporaryDirectory()
        let original = try Hex.decode(Self.passphraseStore)
        try folder.write(FileSecureStore.fileName, original)
        let store = FileSecureStore(profileDirectory: folder.url, keySource: .passphrase("correct horse", FileSecureStore.passphraseParameters))
        #expect(try store.read(SecureStoreItem("closer.open-invite")) == Array("invite".utf8))
        // A new item with a dynamic name goes into the same file, under the same salt and parameters.
        let shared = try SecureStoreItem(validating: "crypto.shared.user-42")
        try store.write(shared, [0xaa])
        let rewritten = try folder.read(FileSecureStore.fileName)
        #expect(Array(rewritten.prefix(33)) == Array(original.prefix(33)))
        // 33 header ‖ 12 IV ‖ entries (2 + 18 + 4 + 6, 2 + 21 + 4 + 1) ‖ 16 tag
        #expect(rewritten.count == 33 + 12 + 30 + 28 + 16)
        let again = FileSecureStore(profileDirectory: folder.url, keySource: .passphrase("correct horse", FileSecureStore.passphraseParameters))
        #expect(try again.read(SecureStoreItem("closer.open-invite")) == Array("invite".utf8))
        #expect(try again.read(shared) == [0xaa])
    }

    @Test func aNewKeyFileStoreHasTheDocumentedLayout() throws {
        let folder = try TemporaryDirectory()
        try FileSecureStore(profileDirectory: folder.url, keySource: .keyFile).write(SecureStoreItem("soulmate.identity"), [1, 2, 3, 4])
        let bytes = try folder.read(FileSecureStore.fileName)
        #expect(Array(bytes.prefix(5)) == Array("KSS1".utf8) + [0])
        // 5 header ‖ 12 IV ‖ entry (2 + 17 + 4 + 4) ‖ 16 tag
        #expect(bytes.count == 5 + 12 + 27 + 16)
    }
}
