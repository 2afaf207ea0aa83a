import Foundation
import Testing

@testable import EraserKit

/// `apply` after a crash between copying an item into the Vault and removing it from the library.
@Suite struct EraserDeviceRecoveryTests {
    @Test func applyAfterACrashAfterTheCopyDoesNotVaultTwice() async throws {
        let fixture = try DeviceFixture()
        _ = try await fixture.scan()
        let path = DeviceFixture.inRange[0]
        let original = try fixture.library.read(path)
        let library = try fixture.library.open()
        let id = try fixture.assetID(path)
        let asset = try #require(try library.asset(id))
        let removed = RemovedAsset(asset: asset, modificationDate: try fixture.library.stat(path).modificationDate, state: .visible)
        // What the interrupted apply left: the copy in the Vault, the photo still in the library.
        let copy = try fixture.device.vault.add(file: try library.contentsURL(of: id), item: VaultItemInput(
            originalID: id.rawValue, type: .photo, matchType: .dateRange, source: .cameraRoll,
            metadata: VaultItemMetadata(originalPath: path, extra: [EraserDevice.removedMetadataKey: try EraserDevice.json(removed)])))
        try fixture.device.decide("asset:\(id.rawValue)", .delete)

        let report = try fixture.device.apply()
        #expect(report.entries.map(\.vaultItemID) == [copy.id])
        #expect(try fixture.device.vault.list().map(\.id) == [copy.id])
        #expect(!fixture.library.exists(path))
        #expect(try fixture.device.vault.coolingOff().map(\.itemID) == [copy.id])

        _ = try fixture.device.vault.restoreFromCoolingOff(copy.id)
        try fixture.device.restore(copy.id)
        #expect(try fixture.library.read(path) == original)
    }
}
