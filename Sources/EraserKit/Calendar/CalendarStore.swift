import Foundation

/// The calendar Ex-Eraser scans and tidies: EventKit on iOS, RFC 5545 `.ics` files on Linux
/// (`ICSCalendarStore`).
public protocol CalendarStore: Sendable {
    /// The visible events that occur in `range`, recurring ones expanded into their occurrences
    /// (each occurrence carries its series' `eventID`).
    func occurrences(in range: DateInterval) throws(EraserKitError) -> [EventOccurrence]

    /// How many visible events (series count once) there are.
    func eventCount() throws(EraserKitError) -> Int

    /// The visible event with `id`, or `nil`.
    func event(_ id: EventID) throws(EraserKitError) -> CalendarEvent?

    /// Takes the event (the whole series) out of the calendar and returns its original VEVENT
    /// text, byte for byte, so that `restore` can put it back exactly.
    func remove(_ id: EventID) throws(EraserKitError) -> RemovedEvent

    /// Puts a removed event back, byte-exact, into the calendar it came from.
    func restore(_ removed: RemovedEvent) throws(EraserKitError)
}

/// An event's id: its calendar's name and the VEVENT's `UID` (with `RECURRENCE-ID` for an
/// overridden occurrence).
public struct EventID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static func < (lhs: EventID, rhs: EventID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { rawValue }
}

/// A person on an event: an attendee or the organizer.
public struct EventPerson: Sendable, Equatable, Codable {
    /// `CN`, when given.
    public var name: String?
    /// The `mailto:` address, when given.
    public var email: String?
    /// A `tel:` address, when given.
    public var phone: String?

    public init(name: String? = nil, email: String? = nil, phone: String? = nil) {
        self.name = name
        self.email = email
        self.phone = phone
    }
}

/// One event (a series, for a recurring one).
public struct CalendarEvent: Sendable, Equatable, Codable, Identifiable {
    public var id: EventID
    /// The calendar (file) it belongs to.
    public var calendar: String
    public var title: String
    public var location: String?
    public var notes: String?
    public var start: Date
    public var end: Date
    public var isAllDay: Bool
    /// The zone of `DTSTART` (`TZID`), or nil for UTC or floating times.
    public var timeZone: String?
    public var organizer: EventPerson?
    public var attendees: [EventPerson]
    /// The `RRULE`, as written, when the event repeats.
    public var recurrenceRule: String?

    public init(
        id: EventID, calendar: String, title: String, location: String? = nil, notes: String? = nil,
        start: Date, end: Date, isAllDay: Bool = false, timeZone: String? = nil,
        organizer: EventPerson? = nil, attendees: [EventPerson] = [], recurrenceRule: String? = nil
    ) {
        self.id = id
        self.calendar = calendar
        self.title = title
        self.location = location
        self.notes = notes
        self.start = start
        self.end = end
        self.isAllDay = isAllDay
        self.timeZone = timeZone
        self.organizer = organizer
        self.attendees = attendees
        self.recurrenceRule = recurrenceRule
    }
}

/// One occurrence of an event in a range.
public struct EventOccurrence: Sendable, Equatable, Codable {
    public var eventID: EventID
    public var start: Date
    public var end: Date

    public init(eventID: EventID, start: Date, end: Date) {
        self.eventID = eventID
        self.start = start
        self.end = end
    }
}

/// An event taken out of the calendar: what `restore` needs to put it back byte-exact.
public struct RemovedEvent: Sendable, Equatable, Codable {
    public var event: CalendarEvent
    /// The component's original text (`BEGIN:VEVENT` … `END:VEVENT`, folded lines and line
    /// endings as they were, every VEVENT of the series including overridden occurrences).
    public var original: [UInt8]

    public init(event: CalendarEvent, original: [UInt8]) {
        self.event = event
        self.original = original
    }
}
