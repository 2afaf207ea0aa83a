import Foundation
import Testing

@testable import EraserKit

@Suite struct VaultTests {
    @Test func aFileIsEncryptedListedAndExportedByteForByte() throws {
        let fixture = try VaultFixture()
        let bytes = VaultFixture.bytes(300_000)
        let original = try fixture.original("IMG_0042.mov", bytes)
        let modified = Date(timeIntervalSince1970: 1_700_000_123)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: original.path)
        let input = VaultItemInput(originalID: "asset-42", type: .video, matchType: .dateRange, source: .icloud,
                                   metadata: VaultItemMetadata(capturedAt: Date(timeIntervalSince1970: 1_690_000_000),
                                                               location: VaultLocation(latitude: 41.0, longitude: 29.0),
                                                               album: "Summer"))
        let added = try fixture.vault.add(file: original, item: input, now: Date(timeIntervalSince1970: 1_800_000_000))

        #expect(added.byteCount == 300_000)
        #expect(added.hasThumbnail == false)
        #expect(added.metadata.originalPath == original.path)
        #expect(added.metadata.originalName == "IMG_0042.mov")
        #expect(added.metadata.modifiedAt == modified)
        // The encrypted file is in media/ under the item's id, and is not the plaintext.
        #expect(try fixture.names("media") == ["\(added.id).enc"])
        let stored = try [UInt8](Data(contentsOf: fixture.vaultFolder.appendingPathComponent("media/\(added.id).enc")))
        #expect(stored.count > bytes.count)
        #expect(!stored.contains(bytes: Array(bytes[1000..<1064])))

        let listed = try fixture.vault.list()
        #expect(listed == [added])
        #expect(listed[0].originalID == "asset-42")
        #expect(listed[0].metadata.album == "Summer")
        #expect(listed[0].createdAt == Date(timeIntervalSince1970: 1_800_000_000))

        let out = fixture.directory.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let exported = try fixture.vault.export(added.id, into: out)
        #expect(exported.lastPathComponent == "IMG_0042.mov")
        #expect(try [UInt8](Data(contentsOf: exported)) == bytes)
        let attributes = try FileManager.default.attributesOfItem(atPath: exported.path)
        #expect(attributes[.modificationDate] as? Date == modified)
        #expect(try fixture.vault.contents(added.id) == bytes)
    }

    @Test func aFiveMebibyteFileRoundTripsInPieces() throws {
        let fixture = try VaultFixture()
        let bytes = VaultFixture.bytes(5 << 20, seed: 7)
        let added = try fixture.vault.add(file: try fixture.original("long.mp4", bytes),
                                          item: VaultItemInput(originalID: "v1", type: .video, matchType: .face, source: .cameraRoll))
        var pieces: [Int] = []
        var joined: [UInt8] = []
        try fixture.vault.readContents(added.id) { piece in
            pieces.append(piece.count)
            joined += piece
        }
        #expect(joined == bytes)
        #expect(pieces.count >= 5)
        #expect(pieces.allSatisfy { $0 <= 1 << 20 })
        let out = fixture.directory.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        #expect(try [UInt8](Data(contentsOf: fixture.vault.export(added.id, into: out))) == bytes)
    }

    @Test func calendarTextIsVaultedFromBytes() throws {
        let fixture = try VaultFixture()
        let event = Array("BEGIN:VEVENT\r\nUID:dinner-1@example.com\r\nSUMMARY:Dinner with Alex\r\nEND:VEVENT\r\n".utf8)
        let added = try fixture.vault.add(
            bytes: event,
            item: VaultItemInput(originalID: "dinner-1@example.com", type: .calendar, matchType: .contact, source: .calendar,
                                 metadata: VaultItemMetadata(originalName: "dinner.ics", title: "Dinner with Alex")))
        #expect(try fixture.vault.contents(added.id) == event)
        #expect(try fixture.vault.item(added.id).metadata.title == "Dinner with Alex")
        #expect(try fixture.vault.items(originalID: "dinner-1@example.com").map(\.id) == [added.id])
        #expect(try fixture.vault.items(originalID: "dinner-2@example.com").isEmpty)
        #expect(throws: EraserKitError.vault(.noThumbnail(added.id.rawValue))) { try fixture.vault.thumbnail(added.id) }
    }

    @Test func vaultDbHoldsNoPlaintextMetadata() throws {
        let fixture = try VaultFixture()
        let original = try fixture.original("Alex-and-me-Bodrum.jpg", VaultFixture.bytes(1000))
        _ = try fixture.vault.add(file: original, item: VaultFixture.photo(
            "library/Alex-and-me-Bodrum.jpg",
            metadata: VaultItemMetadata(album: "Our Anniversary", title: "Kiss at sunset")))
        _ = try fixture.vault.add(bytes: Array("SUMMARY:Alex birthday".utf8), item: VaultItemInput(
            originalID: "alex-birthday@icloud", type: .calendar, matchType: .contact, source: .calendar))
        let database = try fixture.databaseBytes()
        #expect(!database.isEmpty)
        for secret in [original.path, "Alex-and-me-Bodrum", "Our Anniversary", "Kiss at sunset", "alex-birthday", "Alex birthday"] {
            #expect(!database.contains(bytes: Array(secret.utf8)), "vault.db shows \(secret)")
        }
        // The non-secret columns are there, so the search itself works.
        #expect(database.contains(bytes: Array("camera_roll".utf8)))
    }

    @Test func exportRefusesToOverwriteAndSanitizesTheName() throws {
        let fixture = try VaultFixture()
        let added = try fixture.vault.add(bytes: [1, 2, 3], item: VaultFixture.photo(
            "p", metadata: VaultItemMetadata(originalName: "../../etc/passwd")))
        let out = fixture.directory.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let first = try fixture.vault.export(added.id, into: out)
        #expect(first.path == out.appendingPathComponent("passwd").path)
        #expect(throws: EraserKitError.vault(.exportTargetExists(first.path))) { try fixture.vault.export(added.id, into: out) }
        let hidden = try fixture.vault.add(bytes: [4], item: VaultFixture.photo("q", metadata: VaultItemMetadata(originalName: ".profile")))
        #expect(try fixture.vault.export(hidden.id, into: out).lastPathComponent == hidden.id.rawValue)
    }

    @Test func removeDestroysFilesAndRows() throws {
        let fixture = try VaultFixture()
        let png = TestImages.png(width: 40, height: 30, pixel: TestImages.gradient)
        let kept = try fixture.vault.add(bytes: [9, 9], item: VaultFixture.photo("kept"), now: Date(timeIntervalSince1970: 1))
        let gone = try fixture.vault.add(file: try fixture.original("a.png", png), item: VaultFixture.photo("gone"))
        #expect(gone.hasThumbnail)
        #expect(try fixture.names("thumbnails") == ["\(gone.id)_thumb.enc"])
        try fixture.vault.remove(gone.id)
        #expect(try fixture.vault.list().map(\.id) == [kept.id])
        #expect(try fixture.names("media") == ["\(kept.id).enc"])
        #expect(try fixture.names("thumbnails") == [])
        #expect(throws: EraserKitError.vault(.notFound(gone.id.rawValue))) { try fixture.vault.remove(gone.id) }
        #expect(throws: EraserKitError.vault(.notFound(gone.id.rawValue))) { try fixture.vault.contents(gone.id) }
    }

    @Test func badInputIsRefused() throws {
        let fixture = try VaultFixture()
        #expect(throws: EraserKitError.vault(.invalidInput("the original id is empty"))) {
            try fixture.vault.add(bytes: [1], item: VaultFixture.photo(""))
        }
        #expect(throws: EraserKitError.vault(.invalidInput("\(fixture.directory.url.path) is not a regular file"))) {
            try fixture.vault.add(file: fixture.directory.url, item: VaultFixture.photo("x"))
        }
        let missing = fixture.directory.url.appendingPathComponent("missing.jpg")
        #expect(throws: EraserKitError.self) { try fixture.vault.add(file: missing, item: VaultFixture.photo("x")) }
        #expect(try fixture.names("media") == [])
        #expect(throws: EraserKitError.vault(.notFound("nope"))) { try VaultItemID(validating: "nope") }
    }
}
