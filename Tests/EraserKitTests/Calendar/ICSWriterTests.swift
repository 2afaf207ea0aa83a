import Foundation
import Testing

@testable import EraserKit

/// `ICSWriter`'s VEVENTs read back by `ICSParser` and the event reader: the text, people, times
/// and rules come back as they went in, and the bytes are RFC 5545's (folding, escaping).
@Suite struct ICSWriterTests {
    private let istanbul = TimeZone(identifier: "Europe/Istanbul")!
    private let newYork = TimeZone(identifier: "America/New_York")!

    /// `event` written into a calendar named `t`, parsed, and read back by its UID.
    private func readBack(_ event: ICSWriter.Event) throws -> CalendarEvent {
        let loaded = try CalendarFixture.loaded(ICSWriter.calendar([ICSWriter.vevent(event)]))
        return try #require(try loaded.event(EventID(rawValue: "t/\(event.uid)"), floating: UTCZone()))
    }

    private func event(_ uid: String = "u1@example.com", start: ICSWriter.Time? = nil) -> ICSWriter.Event {
        ICSWriter.Event(uid: uid, stamp: CalendarFixture.utc(2024, 1, 2, 3, 4),
                        start: start ?? ICSWriter.Time(date: CalendarFixture.utc(2024, 1, 5, 9), form: .utc))
    }

    /// The physical lines of `bytes` (without their CRLF); fails if a line ends otherwise.
    private func physicalLines(_ bytes: [UInt8]) throws -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var start = 0
        while start < bytes.count {
            let end = try #require(bytes[start...].firstIndex(of: 0x0A))
            #expect(end > start && bytes[end - 1] == 0x0D, "a line not ended by CRLF")
            lines.append(Array(bytes[start..<(end - 1)]))
            start = end + 1
        }
        return lines
    }

    @Test func writesTheExactBytesOfAZonedRecurringEventWithPeople() throws {
        var event = event("a1@example.com", start: ICSWriter.Time(date: CalendarFixture.utc(2024, 1, 5, 6), form: .zoned(istanbul)))
        event.stamp = Date(timeIntervalSince1970: 1_704_164_645)  // 2024-01-02T03:04:05Z
        event.end = ICSWriter.Time(date: CalendarFixture.utc(2024, 1, 5, 7, 30), form: .zoned(istanbul))
        event.rules = [ICSWriter.Rule(frequency: .weekly, count: 3)]
        event.summary = "Dinner, then; a walk"
        event.organizer = ICSWriter.Person(name: "Sam Taylor", address: "mailto:sam@example.com")
        event.attendees = [ICSWriter.Person(name: "Doe, Jane", address: "mailto:jane@example.com",
                                            role: "REQ-PARTICIPANT", participationStatus: "ACCEPTED")]
        let expected = [
            "BEGIN:VEVENT",
            "UID:a1@example.com",
            "DTSTAMP:20240102T030405Z",
            "DTSTART;TZID=Europe/Istanbul:20240105T090000",
            "DTEND;TZID=Europe/Istanbul:20240105T103000",
            "RRULE:FREQ=WEEKLY;COUNT=3",
            #"SUMMARY:Dinner\, then\; a walk"#,
            "ORGANIZER;CN=Sam Taylor:mailto:sam@example.com",
            // 86 octets: folded after the 75th.
            #"ATTENDEE;CN="Doe, Jane";ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED:mailto:jane@"#,
            " example.com",
            "END:VEVENT",
        ].map { $0 + "\r\n" }.joined()
        #expect(ICSWriter.vevent(event).text == expected)
        #expect(ICSWriter.vevent(event) == ICSWriter.vevent(event))

        let read = try readBack(event)
        #expect(read.title == "Dinner, then; a walk")
        #expect(read.timeZone == "Europe/Istanbul")
        #expect(read.start == CalendarFixture.utc(2024, 1, 5, 6))
        #expect(read.end == CalendarFixture.utc(2024, 1, 5, 7, 30))
        #expect(read.recurrenceRule == "FREQ=WEEKLY;COUNT=3")
        #expect(read.organizer == EventPerson(name: "Sam Taylor", email: "sam@example.com"))
        #expect(read.attendees == [EventPerson(name: "Doe, Jane", email: "jane@example.com")])
    }

    @Test func textWithEscapesLineBreaksAndUnicodeReadsBackAsWritten() throws {
        let texts = [
            #"back\slash, comma; semicolon: colon"#,
            "two\nlines\r\nand CRLF\rand CR",
            #"\n is not a line break here, \, nor this"#,
            "Karaköy Lokantası — İstanbul 🍽️ 東京",
            "tab\there",
        ]
        for text in texts {
            var written = event()
            written.summary = text
            written.location = text
            written.notes = text
            let read = try readBack(written)
            let expected = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            #expect(read.title == expected, "\(text)")
            #expect(read.location == expected, "\(text)")
            #expect(read.notes == expected, "\(text)")
        }
        #expect(ICSWriter.escapeText("a\u{0}b\u{1B}c\u{7F}d") == "abcd")
        #expect(ICSWriter.escapeText("a\r\n\nb") == #"a\n\nb"#)
    }

    @Test func foldsAtSeventyFiveOctetsWithoutSplittingACharacter() throws {
        // Every split position of every width of UTF-8 character, over many line lengths.
        let pieces = ["a", "ğ", "東", "🍽", "e\u{301}"]
        for length in 60...260 {
            for shift in 0..<pieces.count {
                let text = String((0..<length).map { index in pieces[(index + shift) % pieces.count] }.joined().prefix(length))
                var written = event()
                written.summary = text
                let bytes = ICSWriter.vevent(written)
                for line in try physicalLines(bytes) {
                    #expect(line.count <= 75, "\(length)/\(shift): a line of \(line.count) octets")
                    #expect(String(validating: line, as: UTF8.self) != nil, "\(length)/\(shift): a line splits a character")
                }
                let summary = try #require(try ICSParser.parse(ICSWriter.calendar([bytes]), fileName: "t.ics").events.first?.property("SUMMARY"))
                #expect(summary.value == text, "\(length)/\(shift)")
            }
        }
        #expect(ICSWriter.fold(Array(String(repeating: "x", count: 75).utf8)).count == 77)
        #expect(ICSWriter.fold(Array(String(repeating: "x", count: 76).utf8)).text == String(repeating: "x", count: 75) + "\r\n x\r\n")
    }

    @Test func peopleNamesNeedingQuotesAndRFC6868EscapesReadBack() throws {
        var written = event()
        let names = [#"Sam "the Boss" Taylor"#, "Taylor; Sam: 2^3, ok", "Ayşe\nYılmaz", "Plain Name"]
        written.organizer = ICSWriter.Person(name: names[0], address: "mailto:boss@example.com")
        written.attendees = names.dropFirst().enumerated().map { index, name in
            ICSWriter.Person(name: name, address: "mailto:p\(index)@example.com")
        } + [ICSWriter.Person(address: "tel:+905321234567")]
        let read = try readBack(written)
        #expect(read.organizer == EventPerson(name: names[0], email: "boss@example.com"))
        #expect(read.attendees == [
            EventPerson(name: names[1], email: "p0@example.com"),
            EventPerson(name: names[2], email: "p1@example.com"),
            EventPerson(name: names[3], email: "p2@example.com"),
            EventPerson(phone: "+905321234567"),
        ])
        #expect(ICSWriter.parameterValue("a:b") == #""a:b""#)
        #expect(ICSWriter.parameterValue("Plain") == "Plain")
    }

    @Test func datesZonedUTCFloatingAndAllDayReadBackAsTheSameInstants() throws {
        let instant = CalendarFixture.utc(2024, 3, 10, 7, 30)  // 03:30 in New York, the morning the clocks change.
        let forms: [(ICSWriter.Time.Form, String?)] = [(.zoned(newYork), "America/New_York"), (.zoned(istanbul), "Europe/Istanbul"),
                                                        (.utc, nil), (.floating(TimeZone(identifier: "UTC")!), nil)]
        for (form, zone) in forms {
            var written = event(start: ICSWriter.Time(date: instant, form: form))
            written.end = ICSWriter.Time(date: instant.addingTimeInterval(5400), form: form)
            let read = try readBack(written)
            #expect(read.start == instant, "\(form)")
            #expect(read.end == instant.addingTimeInterval(5400), "\(form)")
            #expect(read.timeZone == zone, "\(form)")
            #expect(!read.isAllDay)
        }
        // An all-day event on 2024-02-29 in Istanbul: the day is Istanbul's, whatever UTC says.
        let utc = TimeZone(identifier: "UTC")!
        var allDay = event(start: ICSWriter.Time(date: CalendarFixture.utc(2024, 2, 28, 21), form: .date(istanbul)))
        allDay.end = ICSWriter.Time(date: CalendarFixture.utc(2024, 3, 1), form: .date(utc))
        let bytes = ICSWriter.vevent(allDay).text
        #expect(bytes.contains("DTSTART;VALUE=DATE:20240229\r\n"))
        #expect(bytes.contains("DTEND;VALUE=DATE:20240301\r\n"))
        let read = try readBack(allDay)
        #expect(read.isAllDay)
        #expect(read.start == CalendarFixture.utc(2024, 2, 29))
        #expect(read.end == CalendarFixture.utc(2024, 3, 1))
    }

    @Test func rulesAreWrittenInRFC5545FormAndExpandAsMeant() throws {
        let secondMonday = ICSWriter.Rule(frequency: .monthly, interval: 2, count: 4, byDay: [.init(weekday: 2, ordinal: 2)])
        #expect(secondMonday.value == "FREQ=MONTHLY;INTERVAL=2;COUNT=4;BYDAY=2MO")
        let busy = ICSWriter.Rule(
            frequency: .yearly, until: ICSWriter.Time(date: CalendarFixture.utc(2030, 12, 31, 23, 59), form: .utc),
            byDay: [.init(weekday: 6, ordinal: -1), .init(weekday: 1), .init(weekday: 9)], byMonthDay: [1, -1],
            byMonth: [3, 11], byWeekNumber: [20], byYearDay: [-1], bySetPosition: [1, -1], weekStart: 1)
        #expect(busy.value == "FREQ=YEARLY;UNTIL=20301231T235900Z;BYDAY=-1FR,SU;BYMONTHDAY=1,-1;BYMONTH=3,11;"
            + "BYWEEKNO=20;BYYEARDAY=-1;BYSETPOS=1,-1;WKST=SU")

        // 2024-01-08 is the second Monday of January; then March, May and July.
        var written = event(start: ICSWriter.Time(date: CalendarFixture.utc(2024, 1, 8, 17), form: .zoned(istanbul)))
        written.end = ICSWriter.Time(date: CalendarFixture.utc(2024, 1, 8, 18), form: .zoned(istanbul))
        written.rules = [secondMonday]
        let calendars = try CalendarFixture.store(["t.ics": ICSWriter.calendar([ICSWriter.vevent(written)])])
        let occurrences = try calendars.store.occurrences(in: DateInterval(start: CalendarFixture.utc(2023, 1, 1), end: CalendarFixture.utc(2026, 1, 1)))
        #expect(occurrences.map(\.start) == [CalendarFixture.utc(2024, 1, 8, 17), CalendarFixture.utc(2024, 3, 11, 17),
                                             CalendarFixture.utc(2024, 5, 13, 17), CalendarFixture.utc(2024, 7, 8, 17)])

        // A weekly all-day series ending on a DATE.
        let utc = TimeZone(identifier: "UTC")!
        var weekly = event("w@example.com", start: ICSWriter.Time(date: CalendarFixture.utc(2024, 1, 1), form: .date(utc)))
        weekly.rules = [ICSWriter.Rule(frequency: .weekly, until: ICSWriter.Time(date: CalendarFixture.utc(2024, 1, 22), form: .date(utc)),
                                       byDay: [.init(weekday: 2), .init(weekday: 5)])]  // Mondays, Thursdays.
        #expect(weekly.rules[0].value == "FREQ=WEEKLY;UNTIL=20240122;BYDAY=MO,TH")
        let weeks = try CalendarFixture.store(["t.ics": ICSWriter.calendar([ICSWriter.vevent(weekly)])])
        let days = try weeks.store.occurrences(in: DateInterval(start: CalendarFixture.utc(2024, 1, 1), end: CalendarFixture.utc(2024, 3, 1)))
        #expect(days.map(\.start) == [1, 4, 8, 11, 15, 18, 22].map { CalendarFixture.utc(2024, 1, $0) })
    }

    @Test func anOverrideWithRecurrenceIDJoinsItsSeries() throws {
        var master = event("s@example.com", start: ICSWriter.Time(date: CalendarFixture.utc(2024, 1, 1, 9), form: .utc))
        master.rules = [ICSWriter.Rule(frequency: .daily, count: 3)]
        master.summary = "Standup"
        var moved = event("s@example.com", start: ICSWriter.Time(date: CalendarFixture.utc(2024, 1, 2, 15), form: .utc))
        moved.recurrenceID = ICSWriter.Time(date: CalendarFixture.utc(2024, 1, 2, 9), form: .utc)
        moved.summary = "Standup, moved"
        moved.extra = [ICSWriter.Property(name: "X-EXERASER-NOTE", value: ICSWriter.escapeText("kept, as written"))]
        let bytes = ICSWriter.calendar([ICSWriter.vevent(master), ICSWriter.vevent(moved)])
        #expect(bytes.text.contains("RECURRENCE-ID:20240102T090000Z\r\n"))
        #expect(bytes.text.contains(#"X-EXERASER-NOTE:kept\, as written"#))
        let calendars = try CalendarFixture.store(["t.ics": bytes])
        let occurrences = try calendars.store.occurrences(in: DateInterval(start: CalendarFixture.utc(2024, 1, 1), end: CalendarFixture.utc(2024, 2, 1)))
        let instance = EventID(rawValue: "t/s@example.com#20240102T090000Z")
        #expect(occurrences.map(\.start) == [CalendarFixture.utc(2024, 1, 1, 9), CalendarFixture.utc(2024, 1, 2, 15), CalendarFixture.utc(2024, 1, 3, 9)])
        #expect(occurrences.map(\.instanceID) == [nil, instance, nil])
        #expect(try calendars.store.event(instance)?.title == "Standup, moved")
        #expect(try calendars.store.eventCount() == 1)
    }
}

/// `ICSWriter`'s output read by Python's `icalendar` and expanded by `recurring_ical_events`:
/// another reader finds the same text, people, instants and occurrences.
@Suite(.enabled(if: PythonCalendar.shouldRunExpansion, "python3 with icalendar and recurring_ical_events not found (set CI=true to make this a failure)"))
struct ICSWriterPeerTests {
    @Test func icalendarReadsWhatTheWriterWrote() throws {
        let istanbul = TimeZone(identifier: "Europe/Istanbul")!
        var dinner = ICSWriter.Event(
            uid: "dinner@example.com", stamp: CalendarFixture.utc(2024, 1, 2),
            start: ICSWriter.Time(date: CalendarFixture.utc(2024, 1, 26, 14), form: .zoned(istanbul)),
            end: ICSWriter.Time(date: CalendarFixture.utc(2024, 1, 26, 16, 30), form: .zoned(istanbul)))
        dinner.summary = "Dinner, with \"Sam\"; then a walk\nby the sea — Karaköy " + String(repeating: "ğ", count: 60)
        dinner.location = #"Kemankeş Mah.; İstanbul\Turkey"#
        dinner.organizer = ICSWriter.Person(name: "Taylor; Sam: the ^one^", address: "mailto:sam@example.com")
        dinner.attendees = [ICSWriter.Person(name: "Ayşe Yılmaz", address: "mailto:ayse@example.com", participationStatus: "ACCEPTED"),
                            ICSWriter.Person(address: "tel:+905321234567")]
        dinner.rules = [ICSWriter.Rule(frequency: .monthly, count: 6, byDay: [.init(weekday: 6, ordinal: -1)])]
        var moved = ICSWriter.Event(
            uid: "dinner@example.com", stamp: CalendarFixture.utc(2024, 1, 2),
            start: ICSWriter.Time(date: CalendarFixture.utc(2024, 2, 24, 14), form: .zoned(istanbul)),
            end: ICSWriter.Time(date: CalendarFixture.utc(2024, 2, 24, 15), form: .zoned(istanbul)),
            recurrenceID: ICSWriter.Time(date: CalendarFixture.utc(2024, 2, 23, 14), form: .zoned(istanbul)))
        moved.summary = "Dinner, moved"
        let utc = TimeZone(identifier: "UTC")!
        var trip = ICSWriter.Event(
            uid: "trip@example.com", stamp: CalendarFixture.utc(2024, 1, 2),
            start: ICSWriter.Time(date: CalendarFixture.utc(2024, 4, 10), form: .date(utc)),
            end: ICSWriter.Time(date: CalendarFixture.utc(2024, 4, 13), form: .date(utc)))
        trip.summary = "Trip"
        let bytes = ICSWriter.calendar([dinner, moved, trip].map(ICSWriter.vevent))
        let calendars = try CalendarFixture.store(["t.ics": bytes])

        let peers = try PythonCalendar.events(calendars.url("t.ics"))
        #expect(peers.map(\.uid) == ["dinner@example.com", "dinner@example.com", "trip@example.com"])
        let master = try #require(peers.first)
        #expect(master.summary == dinner.summary)
        #expect(master.location == dinner.location)
        #expect(master.organizer?.cn == "Taylor; Sam: the ^one^")
        #expect(master.organizer?.value == "mailto:sam@example.com")
        #expect(master.attendees.map(\.cn) == ["Ayşe Yılmaz", nil])
        #expect(master.attendees.map(\.value) == ["mailto:ayse@example.com", "tel:+905321234567"])
        #expect(master.start == Int64(CalendarFixture.utc(2024, 1, 26, 14).timeIntervalSince1970))
        #expect(master.end == Int64(CalendarFixture.utc(2024, 1, 26, 16, 30).timeIntervalSince1970))
        #expect(peers[2].start == Int64(CalendarFixture.utc(2024, 4, 10).timeIntervalSince1970))
        #expect(peers[2].end == Int64(CalendarFixture.utc(2024, 4, 13).timeIntervalSince1970))

        // The last Friday of six months, February's moved to Saturday: the same for both readers.
        let from = CalendarFixture.utc(2024, 1, 1), to = CalendarFixture.utc(2025, 1, 1)
        let theirs = try PythonCalendar.expand(calendars.url("t.ics"), from: from, to: to)
        let ours = try calendars.store.occurrences(in: DateInterval(start: from, end: to))
        #expect(ours.count == 7)  // Six Fridays (the first is DTSTART) and the trip.
        #expect(Set(theirs.map { "\($0.uid) \($0.start) \($0.end)" })
            == Set(ours.map { "\($0.eventID.rawValue.dropFirst(2)) \(Int64($0.start.timeIntervalSince1970)) \(Int64($0.end.timeIntervalSince1970))" }))
    }
}
