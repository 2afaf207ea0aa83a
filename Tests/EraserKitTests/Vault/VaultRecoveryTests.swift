import Foundation
import Testing

@testable import EraserKit

@Suite struct VaultRecoveryTests {
    @Test func anAddStoppedBeforeItsRowIsCleanedUpOnOpen() throws {
        let faults = VaultFaults(beforeInsertingRow: { _ throws(EraserKitError) in
            throw .vault(.database("simulated crash"))
        })
        let fixture = try VaultFixture(faults: faults)
        let png = TestImages.png(width: 10, height: 10, pixel: TestImages.gradient)
        #expect(throws: EraserKitError.vault(.database("simulated crash"))) {
            try fixture.vault.add(bytes: png, item: VaultFixture.photo("p"))
        }
        // Files in place, no row: what a crash at that point leaves.
        #expect(try fixture.names("media").count == 1)
        #expect(try fixture.names("thumbnails").count == 1)
        let orphan = try fixture.names("media")[0]
        let thumb = try fixture.names("thumbnails")[0]

        let vault = try fixture.reopen()
        #expect(vault.recovery.removedOrphans == ["media/\(orphan)", "thumbnails/\(thumb)"])
        #expect(try fixture.names("media").isEmpty)
        #expect(try fixture.names("thumbnails").isEmpty)
        #expect(try vault.list().isEmpty)
    }

    @Test func temporaryFilesAreDeletedAndAcceptedItemsKept() throws {
        let fixture = try VaultFixture()
        let kept = try fixture.vault.add(bytes: [1, 2, 3], item: VaultFixture.photo("kept"))
        let media = fixture.vaultFolder.appendingPathComponent("media")
        try Data([9]).write(to: media.appendingPathComponent(".\(UUID().uuidString.lowercased()).enc.1234.tmp"))
        try Data([9]).write(to: media.appendingPathComponent("notes.txt"))
        let vault = try fixture.reopen()
        #expect(vault.recovery.removedTemporaryFiles.count == 1)
        #expect(vault.recovery.removedOrphans.isEmpty)
        #expect(vault.recovery.missingFiles.isEmpty)
        #expect(try fixture.names("media") == ["\(kept.id).enc", "notes.txt"])
        #expect(try vault.contents(kept.id) == [1, 2, 3])
    }

    @Test func aMissingFileIsReportedNotHidden() throws {
        let fixture = try VaultFixture()
        let lost = try fixture.vault.add(bytes: [1], item: VaultFixture.photo("lost"))
        try FileManager.default.removeItem(at: fixture.vaultFolder.appendingPathComponent("media/\(lost.id).enc"))
        let vault = try fixture.reopen()
        #expect(vault.recovery.missingFiles == [lost.id])
        #expect(try vault.list().map(\.id) == [lost.id])
    }
}
