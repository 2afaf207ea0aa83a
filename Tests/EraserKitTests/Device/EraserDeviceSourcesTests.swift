import Foundation
import KindredClient
import Testing

@testable import EraserKit

/// `EraserDevice` over injected sources that behave like PhotoKit and EventKit: their own ids, a
/// new id for whatever is restored, the library's own modification date. Opening the folder or
/// the `.ics` file directly (the device's old, folder-only path) would find other ids, no
/// renumbering and the disk's date, so each of these tests fails on that path.
@Suite struct EraserDeviceSourcesTests {
    /// A device on the fixture's profile whose library and calendar are renumbering doubles.
    private func renumberingDevice(_ fixture: DeviceFixture, reportedModification: Date? = nil) throws
        -> (EraserDevice, RenumberingLibrary, RenumberingCalendar) {
        let library = RenumberingLibrary(
            base: try FolderPhotoLibrary(root: fixture.library.root, timeZone: fixture.zone), reportedModification: reportedModification)
        let calendar = RenumberingCalendar(base: try ICSCalendarStore(location: fixture.calendarFile, floatingTimeZone: fixture.zone))
        let sources = DeviceSources(library: { _ in library }, calendar: { _ in calendar })
        let device = try EraserDevice.open(profileDirectory: fixture.device.profile, secureStore: fixture.store,
                                           schedule: CoolingOffSchedule(timeZone: .gmt), sources: sources)
        return (device, library, calendar)
    }

    /// Scans the 2023 range through the device's sources alone: no folder, no file named.
    private func scan(_ device: EraserDevice, _ fixture: DeviceFixture) async throws {
        _ = try await device.scan(ScanRequest(
            photos: nil, calendar: nil, includeCalendar: true,
            dateRanges: [ScanDateRange(from: ScanDay(year: 2023, month: 1, day: 1), through: ScanDay(year: 2023, month: 12, day: 31))],
            timeZone: fixture.zone))
    }

    /// The result whose asset is at `path` now.
    private func result(at path: String, _ device: EraserDevice) throws -> ScanResult {
        let results = try device.review().results()
        let places = try device.places(of: results.map(\.item))
        return try #require(results.first { places[$0.item]?.path == path })
    }

    @Test func scanVaultDeleteApplyAndRestoreFollowTheIdsTheSourcesGive() async throws {
        let fixture = try DeviceFixture()
        let (device, library, calendar) = try renumberingDevice(fixture)
        try await scan(device, fixture)
        let before = Array(try Data(contentsOf: fixture.calendarFile))
        let results = try device.review().results()
        #expect(results.count == 3)
        #expect(results.allSatisfy { $0.item.key.hasPrefix("asset:pk-") || $0.item.key.hasPrefix("event:ek-") })

        let (vaulted, deleted) = (DeviceFixture.inRange[0], DeviceFixture.inRange[1])
        let vaultedBytes = try fixture.library.read(vaulted)
        let deletedBytes = try fixture.library.read(deleted)
        let vaultedTime = try fixture.library.stat(vaulted).modificationNanos
        let photo = try result(at: vaulted, device).item
        let binned = try result(at: deleted, device).item
        let event = try #require(results.first { $0.kind == .calendarEvent }).item
        try device.decide(photo.key, .vault)
        try device.decide(binned.key, .delete)
        try device.decide(event.key, .vault)
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        let applied = try device.apply(now: start)
        #expect(Set(applied.entries.map(\.itemKey)) == [photo.key, binned.key, event.key])
        #expect(!fixture.library.exists(vaulted) && !fixture.library.exists(deleted))
        #expect(!String(decoding: try Data(contentsOf: fixture.calendarFile), as: UTF8.self).contains("anniversary-2023"))
        let entry = { (item: ScanItem) throws -> ApplyReport.Entry in try #require(applied.entries.first { $0.itemKey == item.key }) }

        // The photo comes back byte-identical, with its time, under the id the library gave it.
        let photoReport = try device.restore(try entry(photo).vaultItemID)
        let photoID = AssetID(rawValue: "pk-restored-1")
        #expect(photoReport.original == photo)
        #expect(photoReport.restoredAs == .asset(photoID))
        #expect(photoReport.inReview)
        #expect(try fixture.library.read(vaulted) == vaultedBytes)
        #expect(try fixture.library.stat(vaulted).modificationNanos == vaultedTime)
        #expect(try library.asset(photoID)?.path == vaulted)
        guard case .asset(let oldPhotoID) = photo else { throw CocoaError(.featureUnsupported) }
        #expect(try library.asset(oldPhotoID) == nil)

        // The event comes back byte-exact under its new id.
        let eventReport = try device.restore(try entry(event).vaultItemID)
        #expect(eventReport.original == event)
        #expect(eventReport.restoredAs == .event(EventID(rawValue: "ek-restored-1")))
        #expect(Array(try Data(contentsOf: fixture.calendarFile)) == before)
        #expect(try calendar.event(EventID(rawValue: "ek-restored-1"))?.title == "Anniversary dinner")

        // The deleted photo: out of the bin, then back into the library, renumbered too.
        _ = try device.vault.restoreFromCoolingOff(try entry(binned).vaultItemID)
        let binnedReport = try device.restore(try entry(binned).vaultItemID)
        #expect(binnedReport.restoredAs == .asset(AssetID(rawValue: "pk-restored-2")))
        #expect(try fixture.library.read(deleted) == deletedBytes)
        #expect(try device.vault.list().isEmpty)

        // The review follows: the results are under the new ids, kept, nothing pending, and a
        // restored photo can be decided and vaulted again.
        let after = try device.review().results()
        let restored = [photoReport.restoredAs, eventReport.restoredAs, binnedReport.restoredAs]
        #expect(Set(after.map(\.item)) == Set(restored))
        #expect(after.allSatisfy { $0.decision == .keep })
        #expect(try device.review().pendingDecisions().isEmpty)
        #expect(try device.places(of: [photoReport.restoredAs])[photoReport.restoredAs]?.path == vaulted)
        #expect(try device.dashboard().scan?.decided == [.keep: 3])
        try device.decide(photoReport.restoredAs.key, .vault)
        let again = try #require(try device.apply(now: start).entries.first)
        #expect(again.itemKey == photoReport.restoredAs.key)
        #expect(try device.vault.item(again.vaultItemID).originalID == photoID.rawValue)
        #expect(!fixture.library.exists(vaulted))
    }

    @Test func theVaultRecordsTheLibrarysModificationDateNotTheFiles() async throws {
        let fixture = try DeviceFixture()
        let reported = Date(timeIntervalSince1970: 1_500_000_000.25)
        let (device, _, _) = try renumberingDevice(fixture, reportedModification: reported)
        try await scan(device, fixture)
        let path = DeviceFixture.inRange[0]
        let onDisk = try fixture.library.stat(path).modificationDate
        #expect(onDisk != reported)
        try device.decide(try result(at: path, device).item.key, .vault)
        let id = try #require(try device.apply().entries.first).vaultItemID

        let item = try device.vault.item(id)
        #expect(item.metadata.modifiedAt == reported)
        let record = try EraserDevice.decode(RemovedAsset.self, item.metadata.extra[EraserDevice.removedMetadataKey], item: id)
        #expect(record.modificationDate == reported)
        // The restore puts back the time the library knew.
        try device.restore(id)
        #expect(try fixture.library.stat(path).modificationNanos == FileIdentity.nanos(reported))
    }

    @Test func theFolderSourcesKeepTheIdAndTheReviewKeepsTheItem() async throws {
        let fixture = try DeviceFixture()
        _ = try await fixture.scan()
        let path = DeviceFixture.inRange[0]
        let item = ScanItem.asset(try fixture.assetID(path))
        try fixture.device.decide(item.key, .vault)
        let id = try #require(try fixture.device.apply().entries.first).vaultItemID
        let report = try fixture.device.restore(id)
        #expect(report.restoredAs == item)
        #expect(report.original == item)
        #expect(try fixture.device.review().results().first { $0.item == item }?.decision == .keep)
        try fixture.device.decide(item.key, .delete)  // Still the user's to change.
        #expect(try fixture.device.review().pendingDecisions().map(\.item) == [item])
    }
}
