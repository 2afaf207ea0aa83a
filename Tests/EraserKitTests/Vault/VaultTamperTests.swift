import Foundation
import Testing

@testable import EraserKit

@Suite struct VaultTamperTests {
    @Test func aModifiedFileFailsWithATypedError() throws {
        let fixture = try VaultFixture()
        let item = try fixture.vault.add(bytes: VaultFixture.bytes(3 << 20), item: VaultFixture.photo("p"))
        let file = fixture.vaultFolder.appendingPathComponent("media/\(item.id).enc")
        var stored = try [UInt8](Data(contentsOf: file))
        stored[stored.count - 100] ^= 1
        try Data(stored).write(to: file)
        #expect {
            try fixture.vault.contents(item.id)
        } throws: { error in
            guard case .vault(.corrupted(let what, _)) = error as? EraserKitError else { return false }
            return what == "the file of item \(item.id)"
        }
        // Nothing is exported from a damaged file.
        let out = fixture.directory.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        #expect(throws: EraserKitError.self) { try fixture.vault.export(item.id, into: out) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
    }

    @Test func aTruncatedFileFails() throws {
        let fixture = try VaultFixture()
        let item = try fixture.vault.add(bytes: VaultFixture.bytes(2 << 20), item: VaultFixture.photo("p"))
        let file = fixture.vaultFolder.appendingPathComponent("media/\(item.id).enc")
        let stored = try Data(contentsOf: file)
        try stored.prefix(1 << 20).write(to: file)
        #expect(throws: EraserKitError.self) { try fixture.vault.contents(item.id) }
    }

    @Test func filesSwappedBetweenItemsDoNotOpen() throws {
        let fixture = try VaultFixture()
        let first = try fixture.vault.add(bytes: Array("first".utf8), item: VaultFixture.photo("a"))
        let second = try fixture.vault.add(bytes: Array("second".utf8), item: VaultFixture.photo("b"))
        let media = fixture.vaultFolder.appendingPathComponent("media")
        let a = media.appendingPathComponent("\(first.id).enc"), b = media.appendingPathComponent("\(second.id).enc")
        let aBytes = try Data(contentsOf: a), bBytes = try Data(contentsOf: b)
        try bBytes.write(to: a)
        try aBytes.write(to: b)
        for id in [first.id, second.id] {
            #expect(throws: EraserKitError.vault(.corrupted(
                what: "the file of item \(id)",
                reason: "decryption failed: wrong key, wrong associated data or modified ciphertext"))) {
                try fixture.vault.contents(id)
            }
        }
    }

    @Test func aThumbnailPutInPlaceOfTheMediaFileDoesNotOpen() throws {
        let fixture = try VaultFixture()
        let png = TestImages.png(width: 20, height: 20, pixel: TestImages.gradient)
        let item = try fixture.vault.add(bytes: png, item: VaultFixture.photo("p"))
        try #require(item.hasThumbnail)
        let thumbnail = try Data(contentsOf: fixture.vaultFolder.appendingPathComponent("thumbnails/\(item.id)_thumb.enc"))
        try thumbnail.write(to: fixture.vaultFolder.appendingPathComponent("media/\(item.id).enc"))
        #expect(throws: EraserKitError.self) { try fixture.vault.contents(item.id) }
    }

    @Test func metadataMovedToAnotherRowDoesNotOpen() throws {
        let fixture = try VaultFixture()
        let first = try fixture.vault.add(bytes: [1], item: VaultFixture.photo("a"))
        let second = try fixture.vault.add(bytes: [2], item: VaultFixture.photo("b"))
        try fixture.vault.write("swap metadata") { db in
            try db.execute(sql: """
                UPDATE vault_items SET metadata = (SELECT metadata FROM vault_items WHERE id = ?) WHERE id = ?
                """, arguments: [first.id.rawValue, second.id.rawValue])
        }
        #expect(throws: EraserKitError.vault(.corrupted(what: "the metadata of item \(second.id)",
                                                         reason: "it fails authentication"))) {
            try fixture.vault.item(second.id)
        }
        #expect(throws: EraserKitError.self) { try fixture.vault.list() }
        #expect(try fixture.vault.item(first.id).originalID == "a")
    }
}
