import Foundation
import Testing

@testable import EraserKit

@Suite struct ICSParserTests {
    private func parse(_ bytes: [UInt8]) throws -> ICSDocument { try ICSParser.parse(bytes, fileName: "t.ics") }

    @Test func unfoldsCRLFAndBareLFContinuationsWithSpaceOrTab() throws {
        let bytes = Array("BEGIN:VCALENDAR\r\nX-NOTE:one\r\n two\n\tthree\r\n  four\r\nEND:VCALENDAR\n".utf8)
        let calendar = try #require(try parse(bytes).calendars.first)
        let note = try #require(calendar.property("X-NOTE"))
        #expect(note.value == "onetwothree four")
        #expect(note.line == 2)
        #expect(calendar.byteRange == 0..<bytes.count)
    }

    @Test func aFoldInsideAMultiByteCharacterIsJoinedBeforeDecoding() throws {
        // "Çağrı" with the fold between the two bytes of "ğ" (C4 9F) and inside "ı" (C4 B1).
        var bytes = Array("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:u\r\nDTSTART:20240105\r\nSUMMARY:Ça".utf8)
        bytes += [0xC4, 0x0D, 0x0A, 0x20, 0x9F] + Array("r".utf8) + [0xC4, 0x0D, 0x0A, 0x09, 0xB1]
        bytes += Array(" İstanbul\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
        let event = try #require(try parse(bytes).events.first)
        #expect(event.property("SUMMARY")?.value == "Çağrı İstanbul")
        let loaded = try CalendarFixture.loaded(bytes)
        #expect(try loaded.event(EventID(rawValue: "t/u"), floating: UTCZone())?.title == "Çağrı İstanbul")
    }

    @Test func quotedParameterValuesKeepSemicolonsColonsAndCommas() throws {
        let line = #"ATTENDEE;ROLE=REQ-PARTICIPANT;CN="Taylor, Sam: the; one";X-LIST=a,"b,c",d;X-EMPTY=:mailto:sam@example.com"#
        let property = try ICSProperty.parse(ICSLogicalLine(bytes: Array(line.utf8), line: 7, range: 0..<line.utf8.count), file: "t.ics")
        #expect(property.name == "ATTENDEE")
        #expect(property.parameters == [
            ICSParameter(name: "ROLE", values: ["REQ-PARTICIPANT"]),
            ICSParameter(name: "CN", values: ["Taylor, Sam: the; one"]),
            ICSParameter(name: "X-LIST", values: ["a", "b,c", "d"]),
            ICSParameter(name: "X-EMPTY", values: [""]),
        ])
        #expect(property.value == "mailto:sam@example.com")
        #expect(property.parameter("cn") == "Taylor, Sam: the; one")
    }

    @Test func parameterValuesDecodeRFC6868() throws {
        let line = #"ORGANIZER;CN=George Herman ^'Babe^' Ruth^nJr ^^ ^x:mailto:babe@example.com"#
        let property = try ICSProperty.parse(ICSLogicalLine(bytes: Array(line.utf8), line: 1, range: 0..<1), file: "t.ics")
        #expect(property.parameter("CN") == "George Herman \"Babe\" Ruth\nJr ^ ^x")
    }

    @Test func textValuesAreUnescaped() {
        #expect(ICSText.unescape(#"a\nb\, c\; d\\ e\Nf"#) == "a\nb, c; d\\ e\nf")
        #expect(ICSText.unescape(#"keeps \: and a lone \"#) == #"keeps \: and a lone \"#)
        #expect(ICSText.unescape("plain") == "plain")
    }

    @Test func namesAreCaseInsensitiveAndComponentsNest() throws {
        let bytes = CalendarFixture.calendar([
            "begin:vtimezone", "tzid:Custom", "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:+0100",
            "TZOFFSETTO:+0100", "END:STANDARD", "END:VTIMEZONE",
            "BEGIN:VEVENT", "UID:a", "DTSTART:20240101", "BEGIN:VALARM", "ACTION:DISPLAY", "END:VALARM", "END:VEVENT",
        ])
        let document = try parse(bytes)
        #expect(document.timeZones.count == 1)
        #expect(document.timeZones[0].property("TZID")?.value == "Custom")
        #expect(document.timeZones[0].children.map(\.name) == ["STANDARD"])
        #expect(document.events.count == 1)
        #expect(document.events[0].children.map(\.name) == ["VALARM"])
        #expect(document.events[0].property("ACTION") == nil, "a child's properties stay in the child")
    }

    @Test func eachComponentKnowsItsExactBytes() throws {
        let bytes = CalendarFixture.calendar(
            CalendarFixture.event("a", ["DTSTART:20240101", "SUMMARY:a long", " folded summary"])
                + CalendarFixture.event("b", ["DTSTART:20240102"]))
        let events = try parse(bytes).events
        #expect(Array(bytes[events[0].byteRange]).text
            == "BEGIN:VEVENT\r\nUID:a\r\nDTSTART:20240101\r\nSUMMARY:a long\r\n folded summary\r\nEND:VEVENT\r\n")
        #expect(Array(bytes[events[1].byteRange]).text == "BEGIN:VEVENT\r\nUID:b\r\nDTSTART:20240102\r\nEND:VEVENT\r\n")
        #expect(events[0].byteRange.upperBound == events[1].byteRange.lowerBound)
        #expect(events[0].line == 4)
        #expect(Array(bytes[events[1].endLineStart...]).text.hasPrefix("END:VEVENT\r\nEND:VCALENDAR"))
    }

    @Test func aByteOrderMarkBlankLinesAndAnEmptyFileAreAccepted() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("BEGIN:VCALENDAR\n\nVERSION:2.0\n\r\nEND:VCALENDAR".utf8)
        #expect(try parse(bytes).calendars.first?.property("VERSION")?.value == "2.0")
        #expect(try parse([]).calendars.isEmpty)
        #expect(try parse(Array("\r\n\n".utf8)).calendars.isEmpty)
    }

    @Test(arguments: [
        ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nSUMMARY no colon\r\nEND:VCALENDAR\r\n", 3, "no \":\""),
        ("BEGIN:VCALENDAR\r\nX-A;CN=\"open:value\r\nEND:VCALENDAR\r\n", 2, "not closed"),
        ("BEGIN:VCALENDAR\r\nX-A;CN:value\r\nEND:VCALENDAR\r\n", 2, "has no \"=\""),
        ("BEGIN:VCALENDAR\r\n;X=1:value\r\nEND:VCALENDAR\r\n", 2, "a property name expected"),
        ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", 4, "BEGIN:VEVENT of line 2 is open"),
        ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a\r\n", 3, "BEGIN:VEVENT is never closed"),
        ("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\nEND:VCALENDAR\r\n", 3, "closes no component"),
        (" folded:first\r\nBEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", 1, "continuation"),
        ("VERSION:2.0\r\nBEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", 1, "outside BEGIN:VCALENDAR"),
        ("BEGIN:VEVENT\r\nEND:VEVENT\r\n", 1, "BEGIN:VEVENT outside BEGIN:VCALENDAR"),
        ("BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:\nEND:VCALENDAR\n", 3, "names no component"),
    ])
    func malformedLinesAreTypedErrorsWithTheirLine(text: String, line: Int, reason: String) {
        let error = CalendarFixture.calendarError { _ = try parse(Array(text.utf8)) }
        guard case .malformed(let file, let errorLine, let message) = error else {
            Issue.record("expected .malformed, got \(String(describing: error))")
            return
        }
        #expect(file == "t.ics")
        #expect(errorLine == line)
        #expect(message.contains(reason), "\(message)")
        #expect(EraserKitError.calendar(error!).code == "calendar.malformed")
    }
}
