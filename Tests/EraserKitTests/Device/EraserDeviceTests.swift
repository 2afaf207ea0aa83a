import Foundation
import KindredClient
import Testing

@testable import EraserKit

/// End to end on a generated library: scan, decide, apply, restore, Cooling Off, history.
@Suite struct EraserDeviceTests {
    @Test func dateRangeScanFindsExactlyThePlantedItems() async throws {
        let fixture = try DeviceFixture()
        let summary = try await fixture.scan()
        let keys = try fixture.device.review().results().map(\.item.key).sorted()
        let photos = try DeviceFixture.inRange.map { "asset:" + (try fixture.assetID($0)).rawValue }
        #expect(summary.resultCount == 3)
        #expect(keys.filter { $0.hasPrefix("asset:") } == photos.sorted())
        #expect(keys.filter { $0.hasPrefix("event:") }.count == 1)
        #expect(keys.contains { $0.hasPrefix("event:") && $0.hasSuffix("anniversary-2023") })
        let history = try fixture.device.history()
        #expect(history.count == 1)
        #expect(history.first?.totalMatched == 3)
        #expect(history.first?.totalScanned == 4 + 2)
        #expect(history.first?.completedAt != nil)
    }

    @Test func vaultedPhotoLeavesTheLibraryAndComesBackByteIdentical() async throws {
        let fixture = try DeviceFixture()
        _ = try await fixture.scan()
        let path = DeviceFixture.inRange[0]
        let original = try fixture.library.read(path)
        let originalTime = try fixture.library.stat(path).modificationNanos
        let id = try fixture.assetID(path)
        try fixture.device.decide("asset:\(id.rawValue)", .vault)
        let report = try fixture.device.apply()
        #expect(report.entries.count == 1)
        #expect(!fixture.library.exists(path))
        #expect(try fixture.library.open().asset(id) == nil)
        let item = try fixture.device.vault.item(try #require(report.entries.first).vaultItemID)
        #expect(item.type == .photo)
        #expect(item.matchType == .dateRange)
        #expect(try fixture.device.vault.contents(item.id) == original)
        #expect(try fixture.device.apply().entries.isEmpty)  // Nothing pending any more.

        try fixture.device.restore(item.id)
        #expect(try fixture.library.read(path) == original)
        #expect(try fixture.library.stat(path).modificationNanos == originalTime)
        #expect(try fixture.library.open().asset(id)?.path == path)
        #expect(try fixture.device.vault.list().isEmpty)
        #expect(try fixture.device.history().first?.totalVaulted == 1)
    }

    @Test func deletedPhotoWaitsSevenDaysInTheCoolingOffBin() async throws {
        let fixture = try DeviceFixture()
        _ = try await fixture.scan()
        let path = DeviceFixture.inRange[1]
        try fixture.device.decide("asset:\(try fixture.assetID(path).rawValue)", .delete)
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        let entry = try #require(try fixture.device.apply(now: start).entries.first)
        #expect(entry.decision == .delete)
        #expect(entry.deleteAfter == start.addingTimeInterval(7 * 86_400))
        #expect(!fixture.library.exists(path))

        let dayFive = try fixture.device.tick(now: start.addingTimeInterval(5 * 86_400))
        #expect(dayFive.coolingOff.destroyed.isEmpty)
        #expect(dayFive.notifications.isEmpty)
        let daySix = try fixture.device.tick(now: start.addingTimeInterval(6 * 86_400 + 3_600))
        #expect(daySix.coolingOff.destroyed.isEmpty)
        #expect(daySix.notifications.map(\.title) == [CoolingOffSchedule.reminderTitle])
        #expect(try fixture.device.vault.contents(entry.vaultItemID).count > 0)
        #expect(throws: EraserKitError.vault(.inCoolingOff(entry.vaultItemID.rawValue))) {
            try fixture.device.restore(entry.vaultItemID)
        }

        let dayEight = try fixture.device.tick(now: start.addingTimeInterval(7 * 86_400 + 60))
        #expect(dayEight.coolingOff.destroyed == [entry.vaultItemID])
        #expect(try fixture.device.vault.list().isEmpty)
        #expect(!fixture.library.exists(path))
        #expect(try fixture.device.history().first?.totalDeleted == 1)
    }

    @Test func vaultedEventIsRestoredByteExact() async throws {
        let fixture = try DeviceFixture()
        _ = try await fixture.scan()
        let before = Array(try Data(contentsOf: fixture.calendarFile))
        let key = try #require(try fixture.device.review().results().first { $0.kind == .calendarEvent }).item.key
        try fixture.device.decide(key, .vault)
        let entry = try #require(try fixture.device.apply().entries.first)
        let during = Array(try Data(contentsOf: fixture.calendarFile))
        #expect(during != before)
        #expect(!String(decoding: during, as: UTF8.self).contains("anniversary-2023"))
        let item = try fixture.device.vault.item(entry.vaultItemID)
        #expect(item.type == .calendar)
        #expect(String(decoding: try fixture.device.vault.contents(item.id), as: UTF8.self).hasPrefix("BEGIN:VEVENT\r\nUID:anniversary-2023"))

        try fixture.device.restore(item.id)
        #expect(Array(try Data(contentsOf: fixture.calendarFile)) == before)
        #expect(try fixture.device.vault.list().isEmpty)
    }

    @Test func badInputGetsTypedErrors() async throws {
        let fixture = try DeviceFixture()
        #expect(throws: EraserKitError.scan(.noScan)) { try fixture.device.apply() }
        _ = try await fixture.scan()
        #expect(throws: EraserKitError.scan(.notAResult("nonsense"))) { try fixture.device.decide("nonsense", .vault) }
        #expect(throws: EraserKitError.vault(.notFound("v_missing"))) {
            try fixture.device.restore(VaultItemID(rawValue: "v_missing"))
        }
        #expect(throws: EraserKitError.vault(.alreadySetUp)) {
            try EraserDevice.setUp(profileDirectory: fixture.device.profile, secureStore: fixture.store)
        }
    }
}
