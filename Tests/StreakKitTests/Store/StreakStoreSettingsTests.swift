import Foundation
import StreakKit
import Testing

/// Settings and sync state in the store.
@Suite struct StreakStoreSettingsTests {
    @Test func settingsRoundTripAndDefault() throws {
        let store = try StreakStore.inMemory()
        #expect(try store.settings() == StreakSettings())
        let settings = StreakSettings(
            reminder: ReminderSettings(smart: false, userTime: ReminderTime(hour: 7, minute: 30)),
            smartReminder: SmartReminderState(computedOn: Fixtures.monday, suggested: ReminderTime(hour: 8)),
            timeZoneIdentifier: "Europe/Istanbul", favouriteGames: [.connections, .wordle])
        try store.setSettings(settings)
        #expect(try store.settings() == settings)
        #expect(try store.settings().timeZone().identifier == "Europe/Istanbul")
        var cleared = settings
        cleared.timeZoneIdentifier = nil
        try store.setSettings(cleared)
        #expect(try store.settings().timeZoneIdentifier == nil)
    }

    @Test func badSettingsAreRefusedAndNothingChanges() throws {
        let store = try StreakStore.inMemory()
        #expect(throws: StreakStoreError.invalidSetting("the time zone Mars/Olympus is not known to this system")) {
            try store.setSettings(StreakSettings(timeZoneIdentifier: "Mars/Olympus"))
        }
        #expect(throws: StreakStoreError.invalidSetting("no game has the id tetris")) {
            try store.setSettings(StreakSettings(favouriteGames: ["tetris"]))
        }
        #expect(throws: StreakStoreError.invalidSetting("wordle is a favourite twice")) {
            try store.setSettings(StreakSettings(favouriteGames: [.wordle, .wordle]))
        }
        #expect(try store.settings() == StreakSettings())
    }

    @Test func syncStateKeepsAndForgetsValues() throws {
        let store = try StreakStore.inMemory()
        #expect(try store.syncState("results-cursor") == nil)
        try store.setSyncState("results-cursor", "42")
        try store.setSyncState("results-cursor", "43")
        #expect(try store.syncState("results-cursor") == "43")
        try store.setSyncState("results-cursor", nil)
        #expect(try store.syncState("results-cursor") == nil)
    }

    @Test func storedDatesAreISO8601WithMillisecondsAndRoundTrip() throws {
        let date = Date(timeIntervalSince1970: 1_772_438_400.25)
        #expect(StoredDate.text(date) == "2026-03-02T08:00:00.250Z")
        #expect(StoredDate.date("2026-03-02T08:00:00.250Z") == date)
        #expect(StoredDate.text(Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
        for bad in ["2026-03-02", "2026-03-02T08:00:00Z", "2026-03-02T24:00:00.000Z", "2026-02-30T08:00:00.000Z", "x"] {
            #expect(StoredDate.date(bad) == nil, "\(bad)")
        }
    }
}
