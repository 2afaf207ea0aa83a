import Foundation
import KindredTestSupport
import Testing

@testable import EraserKit

/// `ICSCalendarStore.original(_:)` and the guarded `remove(_:expecting:)`: reading an event's
/// exact bytes without touching the file, and removing only what was read.
@Suite struct ICSCalendarStoreOriginalTests {
    private let bytes = CalendarFixture.calendar(
        CalendarFixture.event("series", ["DTSTART:20240101T090000Z", "RRULE:FREQ=WEEKLY;COUNT=3", "SUMMARY:Weekly with Sam"])
            + CalendarFixture.event("lunch", ["DTSTART:20240102T120000Z", "SUMMARY:Lunch"])
            + CalendarFixture.event("series", ["RECURRENCE-ID:20240108T090000Z", "DTSTART:20240109T090000Z", "SUMMARY:Moved"]))

    private func id(_ uid: String) -> EventID { EventID(rawValue: "cal/\(uid)") }

    @Test(arguments: ["series", "lunch"])
    func originalIsWhatRemoveTakesAndLeavesTheFileAlone(uid: String) throws {
        let calendars = try CalendarFixture.store(["cal.ics": bytes])
        let read = try calendars.store.original(id(uid))
        #expect(try calendars.bytes("cal.ics") == bytes)
        #expect(try calendars.store.event(id(uid)) != nil)
        let removed = try calendars.store.remove(id(uid), expecting: read.original)
        #expect(removed == read)
        #expect(try calendars.store.event(id(uid)) == nil)
        try calendars.store.restore(read)
        #expect(try calendars.bytes("cal.ics") == bytes)
    }

    @Test func originalOfAnOverrideIsTheWholeSeries() throws {
        let calendars = try CalendarFixture.store(["cal.ics": bytes])
        let read = try calendars.store.original(EventID(rawValue: "cal/series#20240108T090000Z"))
        let document = try ICSParser.parse(bytes, fileName: "cal.ics")
        let series = document.events.filter { $0.property("UID")?.value == "series" }
        #expect(read.original == series.flatMap { Array(bytes[$0.byteRange]) })
        #expect(read.event.id == id("series"))
    }

    @Test func anUnknownEventIsNotFound() throws {
        let calendars = try CalendarFixture.store(["cal.ics": bytes])
        #expect(throws: EraserKitError.calendar(.notFound(id("nope")))) { try calendars.store.original(id("nope")) }
        #expect(throws: EraserKitError.calendar(.notFound(EventID(rawValue: "other/lunch")))) {
            try calendars.store.original(EventID(rawValue: "other/lunch"))
        }
    }

    @Test func anEventEditedSinceItWasReadIsNotRemoved() throws {
        let calendars = try CalendarFixture.store(["cal.ics": bytes])
        let read = try calendars.store.original(id("lunch"))
        let edited = Array(bytes.text.replacingOccurrences(of: "SUMMARY:Lunch", with: "SUMMARY:Lunch at noon").utf8)
        _ = try calendars.folder.write("cal.ics", edited)
        #expect(throws: EraserKitError.calendar(.changed(id("lunch")))) {
            try calendars.store.remove(id("lunch"), expecting: read.original)
        }
        #expect(try calendars.bytes("cal.ics") == edited)
        #expect(try calendars.store.event(id("lunch"))?.title == "Lunch at noon")
    }
}
