import Foundation
import Testing

@testable import EraserKit

@Suite struct CoolingOffTests {
    /// 2026-03-25 10:00 in Istanbul (UTC+3, no daylight saving).
    static let start = Date(timeIntervalSince1970: 1_774_422_000)
    static let day: TimeInterval = 86_400

    @Test func sevenCalendarDaysAndADaySixReminder() throws {
        let istanbul = CoolingOffSchedule(timeZone: TimeZone(identifier: "Europe/Istanbul") ?? .gmt)
        #expect(istanbul.deleteAfter(start: Self.start) == Self.start + 7 * Self.day)
        #expect(istanbul.remindAt(start: Self.start) == Self.start + 6 * Self.day)
        // Berlin moves its clocks forward on 2026-03-29: 7 days later at the same wall time is 167 hours.
        let berlin = CoolingOffSchedule(timeZone: TimeZone(identifier: "Europe/Berlin") ?? .gmt)
        #expect(berlin.deleteAfter(start: Self.start) == Self.start + 7 * Self.day - 3600)
        #expect(berlin.remindAt(start: Self.start) == Self.start + 6 * Self.day - 3600)
        #expect(berlin.remindAt(deleteAfter: berlin.deleteAfter(start: Self.start)) == berlin.remindAt(start: Self.start))
    }

    @Test func deleteLaterMakesAPendingEntryAndSchedulesOneReminderForTheBatch() throws {
        let fixture = try VaultFixture()
        let a = try fixture.vault.add(bytes: [1], item: VaultFixture.photo("a"), now: Self.start - 10)
        let b = try fixture.vault.add(bytes: [2], item: VaultFixture.photo("b"), now: Self.start - 9)
        let entries = try fixture.vault.deleteLater([a.id, b.id], now: Self.start)
        #expect(entries.map(\.itemID) == [a.id, b.id])
        #expect(entries.allSatisfy { $0.status == .pending && !$0.reminded })
        #expect(entries.allSatisfy { $0.deleteAfter == Self.start + 7 * Self.day && $0.remindAt == Self.start + 6 * Self.day })
        let pending = try fixture.notifier.pending()
        #expect(pending.count == 1)
        #expect(pending.first?.date == Self.start + 6 * Self.day)
        #expect(pending.first?.body == "Tomorrow, these items will be gone forever. Want to take one last look?")
        // The items are still in the Vault, marked as waiting.
        let listed = try fixture.vault.list()
        #expect(listed.map { $0.coolingOff?.status } == [.pending, .pending])
        #expect(try fixture.vault.contents(a.id) == [1])
        #expect(throws: EraserKitError.vault(.inCoolingOff(a.id.rawValue))) { try fixture.vault.deleteLater(a.id, now: Self.start) }
        #expect(throws: EraserKitError.vault(.inCoolingOff(a.id.rawValue))) { try fixture.vault.remove(a.id) }
    }

    @Test func aRefusedReminderAddsNothing() throws {
        let fixture = try VaultFixture()
        let a = try fixture.vault.add(bytes: [1], item: VaultFixture.photo("a"), now: Self.start - 10)
        fixture.notifier.setFailing(true)
        #expect(throws: EraserKitError.vault(.notifier("the test notifier is set to fail"))) {
            try fixture.vault.deleteLater(a.id, now: Self.start)
        }
        fixture.notifier.setFailing(false)
        #expect(try fixture.vault.coolingOff().isEmpty)
    }

    @Test func restoreKeepsTheItemAndCancelsTheReminderOnceTheBatchIsEmpty() throws {
        let fixture = try VaultFixture()
        let a = try fixture.vault.add(bytes: [1], item: VaultFixture.photo("a"), now: Self.start - 10)
        let b = try fixture.vault.add(bytes: [2], item: VaultFixture.photo("b"), now: Self.start - 9)
        try fixture.vault.deleteLater([a.id, b.id], now: Self.start)
        let reminder = try #require(try fixture.notifier.pending().first)

        let restored = try fixture.vault.restoreFromCoolingOff(a.id, now: Self.start + Self.day)
        #expect(restored.status == .restored)
        #expect(restored.resolvedAt == Self.start + Self.day)
        #expect(try fixture.notifier.pending().map(\.id) == [reminder.id])
        try fixture.vault.restoreFromCoolingOff(b.id, now: Self.start + Self.day)
        #expect(try fixture.notifier.pending().isEmpty)
        #expect(fixture.notifier.cancelled == [reminder.id])
        #expect(throws: EraserKitError.vault(.notInCoolingOff(a.id.rawValue))) { try fixture.vault.restoreFromCoolingOff(a.id) }

        // Past the deadline, restored items stay in the Vault.
        let report = try fixture.vault.runCoolingOffCheck(now: Self.start + 30 * Self.day)
        #expect(report == CoolingOffReport(destroyed: [], reminded: 0, pending: 0, nextDeadline: nil))
        #expect(try fixture.vault.list().map(\.id) == [a.id, b.id])
        #expect(try fixture.vault.list().allSatisfy { $0.coolingOff == nil })
    }

    @Test func theCheckDestroysOnlyPastDuePendingItems() throws {
        let fixture = try VaultFixture()
        let png = TestImages.png(width: 8, height: 8, pixel: TestImages.gradient)
        let due = try fixture.vault.add(bytes: png, item: VaultFixture.photo("due"), now: Self.start - 10)
        let later = try fixture.vault.add(bytes: [2], item: VaultFixture.photo("later"), now: Self.start - 9)
        let restored = try fixture.vault.add(bytes: [3], item: VaultFixture.photo("restored"), now: Self.start - 8)
        let kept = try fixture.vault.add(bytes: [4], item: VaultFixture.photo("kept"), now: Self.start - 7)
        try fixture.vault.deleteLater([due.id, restored.id], now: Self.start)
        try fixture.vault.deleteLater(later.id, now: Self.start + Self.day)
        try fixture.vault.restoreFromCoolingOff(restored.id, now: Self.start)

        // One second early: nothing happens.
        let early = try fixture.vault.runCoolingOffCheck(now: Self.start + 7 * Self.day - 1)
        #expect(early.destroyed.isEmpty)
        #expect(early.pending == 2)
        #expect(early.nextDeadline == Self.start + 7 * Self.day)

        let report = try fixture.vault.runCoolingOffCheck(now: Self.start + 7 * Self.day)
        #expect(report.destroyed == [due.id])
        #expect(report.pending == 1)
        #expect(report.nextDeadline == Self.start + 8 * Self.day)
        #expect(try fixture.vault.list().map(\.id) == [later.id, restored.id, kept.id])
        #expect(try fixture.names("media").contains("\(due.id).enc") == false)
        #expect(try fixture.names("thumbnails").isEmpty)
        #expect(throws: EraserKitError.vault(.notFound(due.id.rawValue))) { try fixture.vault.contents(due.id) }
        // The entry stays as a record of the deletion.
        let history = try fixture.vault.coolingOffHistory()
        #expect(history.map(\.status).sorted { $0.rawValue < $1.rawValue } == [.deleted, .pending, .restored])
        #expect(history.first { $0.status == .deleted }?.itemID == nil)
        #expect(history.first { $0.status == .deleted }?.resolvedAt == Self.start + 7 * Self.day)

        // Running again changes nothing.
        let again = try fixture.vault.runCoolingOffCheck(now: Self.start + 7 * Self.day)
        #expect(again.destroyed.isEmpty)
        #expect(try fixture.vault.list().count == 3)
    }

    @Test func aCheckStoppedAfterTheFilesIsCompletedByTheNextRun() throws {
        let faults = VaultFaults(afterDestroyingFiles: { _ throws(EraserKitError) in
            throw .vault(.fileSystem(path: "simulated", reason: "crash"))
        })
        let fixture = try VaultFixture(faults: faults)
        let a = try fixture.vault.add(bytes: [1], item: VaultFixture.photo("a"), now: Self.start - 10)
        try fixture.vault.deleteLater(a.id, now: Self.start)
        #expect(throws: EraserKitError.vault(.fileSystem(path: "simulated", reason: "crash"))) {
            try fixture.vault.runCoolingOffCheck(now: Self.start + 8 * Self.day)
        }
        // The file is gone, the rows are not: still pending.
        #expect(try fixture.names("media").isEmpty)
        #expect(try fixture.vault.coolingOff().map(\.itemID) == [a.id])

        let vault = try fixture.reopen()
        let report = try vault.runCoolingOffCheck(now: Self.start + 8 * Self.day)
        #expect(report.destroyed == [a.id])
        #expect(try vault.list().isEmpty)
        #expect(try vault.coolingOff().isEmpty)
        #expect(try vault.coolingOffHistory().map(\.status) == [.deleted])
    }

    @Test func deliveredRemindersAreMarked() throws {
        let fixture = try VaultFixture()
        let a = try fixture.vault.add(bytes: [1], item: VaultFixture.photo("a"), now: Self.start - 10)
        try fixture.vault.deleteLater(a.id, now: Self.start)
        #expect(try fixture.vault.runCoolingOffCheck(now: Self.start + 6 * Self.day).reminded == 0)
        #expect(fixture.notifier.deliver(now: Self.start + 6 * Self.day).count == 1)
        #expect(try fixture.vault.runCoolingOffCheck(now: Self.start + 6 * Self.day).reminded == 1)
        #expect(try fixture.vault.coolingOff().first?.reminded == true)
    }
}
