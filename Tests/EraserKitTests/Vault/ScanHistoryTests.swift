import Foundation
import Testing

@testable import EraserKit

@Suite struct ScanHistoryTests {
    @Test func scansAreRecordedUpdatedAndListedNewestFirst() throws {
        let fixture = try VaultFixture()
        let first = VaultScanRecord(id: "s1", startedAt: Date(timeIntervalSince1970: 1_000))
        try fixture.vault.recordScan(first)
        var done = first
        done.completedAt = Date(timeIntervalSince1970: 1_180)
        done.totalScanned = 1000
        done.totalMatched = 42
        done.totalVaulted = 30
        done.totalDeleted = 12
        try fixture.vault.recordScan(done)
        let second = VaultScanRecord(id: "s2", startedAt: Date(timeIntervalSince1970: 5_000))
        try fixture.vault.recordScan(second)
        #expect(try fixture.vault.history() == [second, done])
        var negative = second
        negative.totalMatched = -1
        #expect(throws: EraserKitError.vault(.invalidInput("a scan total is negative"))) { try fixture.vault.recordScan(negative) }
    }
}
