import Foundation
import KindredClient
import KindredTestSupport
import Testing

@testable import EraserKit

@Suite struct FileLocalNotifierTests {
    @Test func theScheduleSurvivesAndFiresOnce() throws {
        let directory = try TemporaryDirectory()
        let notifier = FileLocalNotifier(profileDirectory: directory.url)
        try notifier.schedule(id: "b", at: Date(timeIntervalSince1970: 200), title: "T", body: "second")
        try notifier.schedule(id: "a", at: Date(timeIntervalSince1970: 100), title: "T", body: "first")
        try notifier.schedule(id: "c", at: Date(timeIntervalSince1970: 300), title: "T", body: "old")
        try notifier.schedule(id: "c", at: Date(timeIntervalSince1970: 400), title: "T", body: "replaced")
        try notifier.schedule(id: "d", at: Date(timeIntervalSince1970: 150), title: "T", body: "cancelled")
        try notifier.cancel(id: "d")
        try notifier.cancel(id: "unknown")

        // Another instance (the next `tick`) reads the same schedule.
        let later = FileLocalNotifier(profileDirectory: directory.url)
        #expect(try later.pending().map(\.id) == ["a", "b", "c"])
        #expect(try later.pending().last?.body == "replaced")
        #expect(try later.due(now: Date(timeIntervalSince1970: 200)).map(\.id) == ["a", "b"])
        #expect(try later.pending().count == 3)

        let fired = try later.fire(now: Date(timeIntervalSince1970: 200))
        #expect(fired.map(\.id) == ["a", "b"])
        #expect(try later.fire(now: Date(timeIntervalSince1970: 200)).isEmpty)
        #expect(try later.pending().map(\.id) == ["c"])
        #expect(try later.delivered().map(\.notification.id) == ["a", "b"])
        #expect(try later.delivered().allSatisfy { $0.firedAt == Date(timeIntervalSince1970: 200) })

        let attributes = try FileManager.default.attributesOfItem(
            atPath: directory.url.appendingPathComponent(FileLocalNotifier.fileName).path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func aDamagedScheduleIsATypedError() throws {
        let directory = try TemporaryDirectory()
        try directory.write(FileLocalNotifier.fileName, Array("{not json".utf8))
        let notifier = FileLocalNotifier(profileDirectory: directory.url)
        #expect {
            try notifier.pending()
        } throws: { error in
            (error as? EraserKitError)?.code == "vault.notifier"
        }
    }

    @Test func theVaultsReminderLandsInTheFileAndIsCancelledOnRestore() throws {
        let directory = try TemporaryDirectory()
        let notifier = FileLocalNotifier(profileDirectory: directory.url)
        let vault = try Vault.setUp(profileDirectory: directory.url, secureStore: InMemorySecureStore(),
                                    notifier: notifier, schedule: CoolingOffSchedule(timeZone: .gmt))
        let item = try vault.add(bytes: [1], item: VaultFixture.photo("p"))
        let start = Date(timeIntervalSince1970: 1_000_000)
        try vault.deleteLater(item.id, now: start)
        #expect(try notifier.pending().map(\.date) == [start + 6 * 86_400])
        #expect(try notifier.due(now: start + 6 * 86_400 - 1).isEmpty)
        try vault.restoreFromCoolingOff(item.id)
        #expect(try notifier.pending().isEmpty)
    }
}

