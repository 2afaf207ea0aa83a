import Foundation
import Testing

@testable import EraserKit

/// A `CalendarStore` for scan tests: single (non-recurring) events; `occurrences(in:)` returns
/// every event touching the interval *closed at both ends* (like `DateInterval.intersects`), so the
/// engine's own half-open filter is what the tests check. Unconfigured, or asked to read an original,
/// remove or restore, it fails the test.
final class ScanFakeCalendar: CalendarStore {
    private let events: [CalendarEvent]?

    /// An unconfigured calendar: every call fails the test.
    init() { events = nil }

    /// A calendar holding `events` (listed sorted by id).
    init(events: [CalendarEvent]) { self.events = events.sorted { $0.id < $1.id } }

    private func configured(_ method: String) throws(EraserKitError) -> [CalendarEvent] {
        guard let events else {
            Issue.record("ScanFakeCalendar.\(method) called, but the test gave the calendar no events")
            throw .calendar(.fileSystem(path: "unconfigured", reason: "unconfigured ScanFakeCalendar"))
        }
        return events
    }

    func occurrences(in range: DateInterval) throws(EraserKitError) -> [EventOccurrence] {
        try configured("occurrences(in:)")
            .filter { $0.start <= range.end && $0.end >= range.start }
            .map { EventOccurrence(eventID: $0.id, start: $0.start, end: $0.end) }
    }

    func eventCount() throws(EraserKitError) -> Int { try configured("eventCount()").count }

    func events(offset: Int, limit: Int) throws(EraserKitError) -> [CalendarEvent] {
        let events = try configured("events(offset:limit:)")
        guard offset >= 0, limit > 0 else {
            Issue.record("ScanFakeCalendar.events(offset: \(offset), limit: \(limit)): bad arguments")
            return []
        }
        return Array(events.dropFirst(offset).prefix(limit))
    }

    func event(_ id: EventID) throws(EraserKitError) -> CalendarEvent? {
        try configured("event(_:)").first { $0.id == id }
    }

    func original(_ id: EventID) throws(EraserKitError) -> RemovedEvent {
        Issue.record("ScanFakeCalendar.original must not be called by a scan")
        throw .calendar(.notFound(id))
    }

    func remove(_ id: EventID, expecting expected: [UInt8]?) throws(EraserKitError) -> RemovedEvent {
        Issue.record("ScanFakeCalendar.remove must not be called by a scan")
        throw .calendar(.notFound(id))
    }

    func restore(_ removed: RemovedEvent) throws(EraserKitError) -> EventID {
        Issue.record("ScanFakeCalendar.restore must not be called by a scan")
        throw .calendar(.notFound(removed.event.id))
    }
}

/// A `ContactMatching` for scan tests: an exact, case-insensitive e-mail match on attendees and
/// the organizer (confidence 0.95), or the contact's name inside the title (0.7).
struct ScanFakeContactMatcher: ContactMatching {
    let contact: ScanContact

    func match(_ event: CalendarEvent) -> ContactHit? {
        let emails = Set(contact.emails.map { $0.lowercased() })
        for attendee in event.attendees {
            if let email = attendee.email, emails.contains(email.lowercased()) {
                return ContactHit(field: .attendeeEmail, value: email, confidence: 0.95)
            }
        }
        if let email = event.organizer?.email, emails.contains(email.lowercased()) {
            return ContactHit(field: .organizerEmail, value: email, confidence: 0.95)
        }
        if let name = contact.name, !name.isEmpty, event.title.localizedCaseInsensitiveContains(name) {
            return ContactHit(field: .title, value: event.title, confidence: 0.7)
        }
        return nil
    }
}
