import Foundation
import KindredTestSupport
import Testing

@testable import EraserKit

@Suite struct ICSCalendarStoreRemovalTests {
    /// A calendar with a series whose override is apart from its master, folded lines and
    /// non-ASCII text, in `lineBreak`.
    private func original(lineBreak: String = "\r\n") -> [UInt8] {
        CalendarFixture.calendar(
            ["BEGIN:VTIMEZONE", "TZID:Custom", "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:+0300",
             "TZOFFSETTO:+0300", "END:STANDARD", "END:VTIMEZONE"]
                + CalendarFixture.event("series", ["DTSTART;TZID=Custom:20240101T090000", "RRULE:FREQ=WEEKLY;COUNT=5",
                                                   "SUMMARY:Weekly with Sam — çok uzun bir başlık ki satır", " katlansın"])
                + CalendarFixture.event("lunch", ["DTSTART:20240102T120000Z", "SUMMARY:Lunch"])
                + CalendarFixture.event("series", ["RECURRENCE-ID;TZID=Custom:20240108T090000",
                                                   "DTSTART;TZID=Custom:20240109T090000", "SUMMARY:Moved"])
                + CalendarFixture.event("dinner", ["DTSTART:20240103T190000Z", "SUMMARY:Dinner"])
                + CalendarFixture.event("walk", ["DTSTART:20240104T190000Z", "SUMMARY:Walk"]),
            lineBreak: lineBreak)
    }

    private func id(_ uid: String) -> EventID { EventID(rawValue: "cal/\(uid)") }

    @Test(arguments: ["\r\n", "\n"])
    func removeThenRestoreIsByteIdentical(lineBreak: String) throws {
        let bytes = original(lineBreak: lineBreak)
        for uid in ["series", "lunch", "dinner", "walk"] {
            let calendars = try CalendarFixture.store(["cal.ics": bytes])
            let removed = try calendars.store.remove(id(uid))
            #expect(try calendars.store.event(id(uid)) == nil)
            #expect(try calendars.store.eventCount() == 3)
            #expect(try calendars.bytes("cal.ics") != bytes)
            try calendars.store.restore(removed)
            #expect(try calendars.bytes("cal.ics") == bytes, "\(uid)")
            #expect(try calendars.store.eventCount() == 4)
        }
    }

    @Test func removalTakesEveryVEventOfTheSeriesByteForByte() throws {
        let bytes = original()
        let calendars = try CalendarFixture.store(["cal.ics": bytes])
        let removed = try calendars.store.remove(EventID(rawValue: "cal/series#20240108T090000"))
        let document = try ICSParser.parse(bytes, fileName: "cal.ics")
        let series = document.events.filter { $0.property("UID")?.value == "series" }
        #expect(series.count == 2)
        #expect(removed.original == series.flatMap { Array(bytes[$0.byteRange]) })
        #expect(removed.original.text.contains("SUMMARY:Weekly with Sam — çok uzun bir başlık ki satır\r\n katlansın\r\n"))
        #expect(removed.event.id == id("series"))
        #expect(removed.event.title == "Weekly with Sam — çok uzun bir başlık ki satırkatlansın")
        #expect(removed.placement?.fragments.map(\.offset) == series.map(\.byteRange.lowerBound))
        let left = try calendars.bytes("cal.ics")
        #expect(left == Array(bytes[..<series[0].byteRange.lowerBound]) + Array(bytes[series[0].byteRange.upperBound..<series[1].byteRange.lowerBound])
            + Array(bytes[series[1].byteRange.upperBound...]))
        #expect(try calendars.store.occurrences(in: DateInterval(start: .distantPast, end: .distantFuture)).count == 3)
    }

    @Test func undoingSeveralRemovalsGivesTheOriginalBack() throws {
        let bytes = original()
        let cases: [([String], [Int])] = [
            (["lunch", "walk"], [0, 1]), (["lunch", "walk"], [1, 0]),  // apart: any order
            (["series", "walk"], [0, 1]), (["walk", "series"], [0, 1]),
            (["dinner", "walk"], [1, 0]), (["walk", "dinner"], [1, 0]),  // next to each other: in reverse order
            (["series", "lunch", "dinner", "walk"], [3, 2, 1, 0]), (["walk", "series", "lunch", "dinner"], [3, 2, 1, 0]),
            (["lunch", "dinner"], [0, 1]), (["dinner", "lunch"], [0, 1]),  // the override stands between them
        ]
        for (uids, restoreOrder) in cases {
            let calendars = try CalendarFixture.store(["cal.ics": bytes])
            let removed = try uids.map { try calendars.store.remove(id($0)) }
            #expect(try calendars.store.eventCount() == 4 - uids.count)
            for index in restoreOrder { try calendars.store.restore(removed[index]) }
            #expect(try calendars.bytes("cal.ics") == bytes, "\(uids) restored in order \(restoreOrder)")
        }
    }

    @Test func neighboursRestoredInTheirRemovalOrderComeBackWhole() throws {
        let bytes = original()
        let document = try ICSParser.parse(bytes, fileName: "cal.ics")
        let vevents = Set(document.events.map { Array(bytes[$0.byteRange]) })
        for uids in [["dinner", "walk"], ["walk", "dinner"], ["series", "lunch", "dinner", "walk"]] {
            let calendars = try CalendarFixture.store(["cal.ics": bytes])
            let removed = try uids.map { try calendars.store.remove(id($0)) }
            for event in removed { try calendars.store.restore(event) }
            let restored = try calendars.bytes("cal.ics")
            let again = try ICSParser.parse(restored, fileName: "cal.ics")
            #expect(again.events.count == document.events.count)
            #expect(Set(again.events.map { Array(restored[$0.byteRange]) }) == vevents, "every VEVENT byte-exact, \(uids)")
            #expect(restored.count == bytes.count)
        }
    }

    @Test func anEditElsewhereKeepsTheEventsPlace() throws {
        let bytes = original()
        let calendars = try CalendarFixture.store(["cal.ics": bytes])
        let removed = try calendars.store.remove(id("dinner"))
        let edited = try calendars.bytes("cal.ics").text.replacingOccurrences(of: "SUMMARY:Walk", with: "SUMMARY:Long walk")
        try calendars.folder.write("cal.ics", Array(edited.utf8))
        try calendars.store.restore(removed)
        #expect(try calendars.bytes("cal.ics").text == bytes.text.replacingOccurrences(of: "SUMMARY:Walk", with: "SUMMARY:Long walk"))
    }

    @Test func whenItsSurroundingsAreGoneTheEventGoesBeforeEndVCalendar() throws {
        let calendars = try CalendarFixture.store(["cal.ics": original()])
        let removed = try calendars.store.remove(id("series"))
        let other = CalendarFixture.calendar(
            ["BEGIN:VTIMEZONE", "TZID:Custom", "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:+0300",
             "TZOFFSETTO:+0300", "END:STANDARD", "END:VTIMEZONE"]
                + CalendarFixture.event("new", ["DTSTART:20240601T090000Z"]), lineBreak: "\n")
        try calendars.folder.write("cal.ics", other)
        try calendars.store.restore(removed)
        let end = other.count - "END:VCALENDAR\n".utf8.count
        #expect(try calendars.bytes("cal.ics") == Array(other[..<end]) + removed.original + Array(other[end...]))
        #expect(try calendars.store.events(offset: 0, limit: 5).map(\.id) == [id("new"), id("series")])
        #expect(try calendars.store.occurrences(in: DateInterval(start: .distantPast, end: .distantFuture)).count == 6)
    }

    @Test func aRemovedEventWithoutPlacementGoesBeforeEndVCalendar() throws {
        let bytes = original()
        let calendars = try CalendarFixture.store(["cal.ics": bytes])
        var removed = try calendars.store.remove(id("lunch"))
        let afterRemoval = try calendars.bytes("cal.ics")
        removed.placement = nil
        try calendars.store.restore(removed)
        let end = afterRemoval.count - "END:VCALENDAR\r\n".utf8.count
        #expect(try calendars.bytes("cal.ics") == Array(afterRemoval[..<end]) + removed.original + Array(afterRemoval[end...]))
    }

    @Test func aDeletedFileComesBackAsANewCalendar() throws {
        let calendars = try CalendarFixture.store(["cal.ics": original()])
        let removed = try calendars.store.remove(id("lunch"))
        try FileManager.default.removeItem(at: calendars.url("cal.ics"))
        try calendars.store.restore(removed)
        #expect(try calendars.bytes("cal.ics").text == "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Ex-Eraser//EraserKit//EN\r\n"
            + removed.original.text + "END:VCALENDAR\r\n")
        #expect(try calendars.store.event(id("lunch"))?.title == "Lunch")
    }

    @Test func restoringTwiceIsRefused() throws {
        let calendars = try CalendarFixture.store(["cal.ics": original()])
        let removed = try calendars.store.remove(id("series"))
        try calendars.store.restore(removed)
        let expected = EraserKitError.calendar(.alreadyPresent(id("series")))
        #expect(throws: expected) { try calendars.store.restore(removed) }
        #expect(expected.code == "calendar.already_present")
        #expect(try calendars.bytes("cal.ics") == original())
    }

    @Test func errorsForUnknownEventsAndCalendars() throws {
        let calendars = try CalendarFixture.store(["cal.ics": original()])
        #expect(throws: EraserKitError.calendar(.notFound(id("nope")))) { try calendars.store.remove(id("nope")) }
        #expect(throws: EraserKitError.calendar(.notFound(EventID(rawValue: "other/lunch")))) {
            try calendars.store.remove(EventID(rawValue: "other/lunch"))
        }
        let removed = try calendars.store.remove(id("lunch"))
        let single = try ICSCalendarStore(location: try calendars.folder.write("solo.ics", original()))
        #expect(throws: EraserKitError.calendar(.unknownCalendar("cal"))) { try single.restore(removed) }
    }

    @Test func writesAreAtomicAndKeepTheFilesPermissions() throws {
        let calendars = try CalendarFixture.store(["cal.ics": original()])
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: calendars.url("cal.ics").path)
        let removed = try calendars.store.remove(id("walk"))
        try calendars.store.restore(removed)
        let attributes = try FileManager.default.attributesOfItem(atPath: calendars.url("cal.ics").path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: calendars.folder.url.path) == ["cal.ics"], "no temporary file left")
    }

    @Test func removedEventsSurviveJSON() throws {
        let calendars = try CalendarFixture.store(["cal.ics": original()])
        let removed = try calendars.store.remove(id("series"))
        let decoded = try JSONDecoder().decode(RemovedEvent.self, from: JSONEncoder().encode(removed))
        #expect(decoded == removed)
        try calendars.store.restore(decoded)
        #expect(try calendars.bytes("cal.ics") == original())
    }
}
