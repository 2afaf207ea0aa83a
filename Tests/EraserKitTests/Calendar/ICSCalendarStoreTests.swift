import Foundation
import KindredTestSupport
import Testing

@testable import EraserKit

@Suite struct ICSCalendarStoreTests {
    private let all = DateInterval(start: CalendarFixture.utc(2000, 1, 1), end: CalendarFixture.utc(2030, 1, 1))

    private func folder() throws -> CalendarFolder {
        let calendars = try CalendarFixture.store([
            "Work.ics": CalendarFixture.calendar(
                CalendarFixture.event("b@x", ["DTSTART:20240105T090000Z", "SUMMARY:B"])
                    + CalendarFixture.event("a@x", ["DTSTART:20240104T090000Z", "SUMMARY:A", "RRULE:FREQ=DAILY;COUNT=2"])),
            "home.ICS": CalendarFixture.calendar(CalendarFixture.event("c@x", ["DTSTART:20240103T090000Z", "SUMMARY:C"])),
            ".hidden.ics": CalendarFixture.calendar(CalendarFixture.event("h@x", ["DTSTART:20240103T090000Z"])),
            "notes.txt": Array("not a calendar".utf8),
        ])
        try FileManager.default.createDirectory(at: calendars.url("sub.ics"), withIntermediateDirectories: true)
        return calendars
    }

    @Test func aFolderIsOneCalendarPerICSFile() throws {
        let calendars = try folder()
        #expect(try calendars.store.eventCount() == 3)
        let events = try calendars.store.events(offset: 0, limit: 10)
        #expect(events.map(\.id.rawValue) == ["Work/a@x", "Work/b@x", "home/c@x"], "by id")
        #expect(events.map(\.calendar) == ["Work", "Work", "home"])
        #expect(try calendars.store.events(offset: 1, limit: 1).map(\.title) == ["B"])
        #expect(try calendars.store.events(offset: 3, limit: 5).isEmpty)
        #expect(try calendars.store.events(offset: 0, limit: 0).isEmpty)
        let occurrences = try calendars.store.occurrences(in: all)
        #expect(occurrences.map(\.eventID.rawValue) == ["home/c@x", "Work/a@x", "Work/a@x", "Work/b@x"])
        #expect(try calendars.store.event(EventID(rawValue: "home/c@x"))?.title == "C")
        #expect(try calendars.store.event(EventID(rawValue: "home/zzz")) == nil)
        #expect(try calendars.store.event(EventID(rawValue: "nowhere/c@x")) == nil)
    }

    @Test func filesNamedAlikeButForTheExtensionKeepTheirWholeNames() throws {
        let calendars = try CalendarFixture.store([
            "a.ics": CalendarFixture.calendar(CalendarFixture.event("x", ["DTSTART:20240101"])),
            "a.ICS": CalendarFixture.calendar(CalendarFixture.event("x", ["DTSTART:20240102"])),
        ])
        #expect(try calendars.store.events(offset: 0, limit: 5).map(\.id.rawValue) == ["a.ICS/x", "a.ics/x"])
        let removed = try calendars.store.remove(EventID(rawValue: "a.ics/x"))
        try calendars.store.restore(removed)
        #expect(try calendars.bytes("a.ics") == CalendarFixture.calendar(CalendarFixture.event("x", ["DTSTART:20240101"])))
    }

    @Test func aSingleFileIsOneCalendarNamedAfterIt() throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("Personal.ics", CalendarFixture.calendar(CalendarFixture.event("p", ["DTSTART:20240101"])))
        let store = try ICSCalendarStore(location: file)
        #expect(try store.events(offset: 0, limit: 5).map(\.id.rawValue) == ["Personal/p"])
        #expect(throws: EraserKitError.calendar(.fileSystem(path: folder.url.appendingPathComponent("missing").path,
                                                               reason: "no such file or folder"))) {
            try ICSCalendarStore(location: folder.url.appendingPathComponent("missing"))
        }
    }

    @Test func edgeIDsAreStable() throws {
        let noUID = "BEGIN:VEVENT\r\nDTSTART:20240101T090000Z\r\nSUMMARY:No UID\r\nEND:VEVENT"
        let bytes = Array(("BEGIN:VCALENDAR\r\n" + noUID + "\r\n"
            + "BEGIN:VEVENT\r\nUID:dup\r\nDTSTART:20240102T090000Z\r\nSUMMARY:First\r\nEND:VEVENT\r\n"
            + "BEGIN:VEVENT\r\nUID:dup\r\nDTSTART:20240103T090000Z\r\nSUMMARY:Second\r\nEND:VEVENT\r\n"
            + "END:VCALENDAR\r\n").utf8)
        let calendars = try CalendarFixture.store(["c.ics": bytes])
        let events = try calendars.store.events(offset: 0, limit: 10)
        // printf 'BEGIN:VEVENT\r\nDTSTART:20240101T090000Z\r\nSUMMARY:No UID\r\nEND:VEVENT\r\n' | sha256sum
        #expect(events.map(\.id.rawValue) == ["c/dup", "c/dup~2", "c/sha256:b9fd735e70880fa7"])
        #expect(events.map(\.title) == ["First", "Second", "No UID"])
    }

    @Test func aMalformedFileFailsWithItsLine() throws {
        let calendars = try CalendarFixture.store(["bad.ics": Array("BEGIN:VCALENDAR\r\nVERSION 2.0\r\nEND:VCALENDAR\r\n".utf8)])
        let expected = CalendarError.malformed(file: "bad.ics", line: 2, reason: "no \":\" between the property VERSION and its value")
        #expect(CalendarFixture.calendarError { _ = try calendars.store.eventCount() } == expected)
        #expect(CalendarFixture.calendarError { _ = try calendars.store.occurrences(in: all) } == expected)
    }

    @Test func anEditByAnotherProgramIsSeenAtOnce() throws {
        let calendars = try folder()
        #expect(try calendars.store.eventCount() == 3)
        try calendars.folder.write("home.ICS", CalendarFixture.calendar(
            CalendarFixture.event("c@x", ["DTSTART:20240103T090000Z", "SUMMARY:C2"])
                + CalendarFixture.event("d@x", ["DTSTART:20240103T090000Z"])))
        #expect(try calendars.store.eventCount() == 4)
        #expect(try calendars.store.event(EventID(rawValue: "home/c@x"))?.title == "C2")
    }
}
