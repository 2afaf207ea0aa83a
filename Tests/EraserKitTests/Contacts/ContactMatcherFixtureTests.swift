import Foundation
import KindredTestSupport
import Testing

@testable import EraserKit

/// The contact matcher over the events of a calendar Python's `icalendar` wrote
/// (`calendar_fixtures.py`'s people.ics), overridden occurrences included.
@Suite(.enabled(if: PythonCalendar.shouldRunFixtures, "python3 with icalendar not found (set CI=true to make this a failure)"))
struct ContactMatcherFixtureTests {
    @Test func samIsFoundWhereverSamIs() throws {
        let folder = try TemporaryDirectory()
        try PythonCalendar.writeFixtures(into: folder.url)
        let store = try ICSCalendarStore(location: folder.url.appendingPathComponent("people.ics"))
        let matcher = ContactMatcher(ScanContact(name: "Sam Taylor", phones: ["0532 123 45 67"], emails: ["sam.taylor@example.com"]),
                                     defaultCountryCode: 90)
        var best: [String: ContactMatch?] = [:]
        for event in try store.events(offset: 0, limit: 50) { best[event.id.rawValue] = matcher.bestMatch(in: event) }
        let moved = try #require(try store.event(EventID(rawValue: "people/standup@example.com#20240311T093000")))
        best[moved.id.rawValue] = matcher.bestMatch(in: moved)

        #expect(best["people/dinner-1@example.com"]??.kind == .email)
        #expect(best["people/dinner-1@example.com"]??.value == "Sam.Taylor@Example.com")
        #expect(best["people/trip@example.com"]??.kind == .email)
        #expect(best["people/standup@example.com"]! == nil, "the series has no Sam; one moved occurrence has")
        #expect(best["people/standup@example.com#20240311T093000"]??.kind == .email)
        #expect(best["people/therapy@example.com"]! == nil)
        #expect(best["people/birthday@example.com"]! == nil, "Samantha is not Sam")
        #expect(best["people/call@example.com"]??.kind == .phone)
        #expect(best["people/call@example.com"]??.field == .notes)
        let dinner = try #require(try store.event(EventID(rawValue: "people/dinner-1@example.com")))
        #expect(matcher.matches(in: dinner).map(\.kind) == [.email, .phone, .fullName, .firstName, .firstName])
        #expect(matcher.matches(in: dinner).map(\.field) == [.attendee, .attendee, .attendee, .attendee, .title])
    }
}
