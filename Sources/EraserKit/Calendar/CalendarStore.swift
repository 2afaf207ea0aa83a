import Foundation

/// The calendar Ex-Eraser scans and tidies: EventKit on iOS, RFC 5545 `.ics` files on Linux
/// (`ICSCalendarStore`).
public protocol CalendarStore: Sendable {
    /// The visible events that occur in `range`, recurring ones expanded into their occurrences
    /// (each occurrence carries its series' `eventID`).
    func occurrences(in range: DateInterval) throws(EraserKitError) -> [EventOccurrence]

    /// How many visible events (series count once) there are.
    func eventCount() throws(EraserKitError) -> Int

    /// Up to `limit` visible events (series count once) from `offset`, in a stable order (by
    /// `EventID`), so a scan can walk every event in batches and resume at an offset; `offset`
    /// past the end gives an empty array. The contact phase needs this: a contact matches events
    /// at any date, not only in a range.
    func events(offset: Int, limit: Int) throws(EraserKitError) -> [CalendarEvent]

    /// The visible event with `id`, or `nil`. An occurrence's `instanceID` (an overridden
    /// occurrence) is also accepted: it gives that occurrence's own details.
    func event(_ id: EventID) throws(EraserKitError) -> CalendarEvent?

    /// The event (the whole series) as `remove` would take it out now — its original VEVENT
    /// text, byte for byte — without changing the calendar, so the Vault can hold a copy before
    /// the event leaves the calendar.
    func original(_ id: EventID) throws(EraserKitError) -> RemovedEvent

    /// Takes the event (the whole series) out of the calendar and returns its original VEVENT
    /// text, byte for byte, so that `restore` can put it back exactly. With `expected` (the
    /// bytes `original(_:)` gave), nothing is removed unless the event is still exactly those
    /// bytes (`CalendarError.changed`).
    func remove(_ id: EventID, expecting expected: [UInt8]?) throws(EraserKitError) -> RemovedEvent

    /// Puts a removed event back, byte-exact, into the calendar it came from.
    /// - Returns: the id the event has now. `ICSCalendarStore` keeps `removed.event.id`; a store
    ///   that can only make the event again (EventKit) gives the new event's id, and the old one
    ///   then names nothing. Whoever keeps ids (scan results) must use this one.
    @discardableResult
    func restore(_ removed: RemovedEvent) throws(EraserKitError) -> EventID
}

extension CalendarStore {
    /// Takes the event (the whole series) out of the calendar, whatever its bytes are now.
    public func remove(_ id: EventID) throws(EraserKitError) -> RemovedEvent { try remove(id, expecting: nil) }
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
    /// `STATUS` as written (`CONFIRMED`, `TENTATIVE`, `CANCELLED`), when given. A cancelled
    /// event is still an event of the calendar (counted, removable) but has no occurrences.
    public var status: String?

    public init(
        id: EventID, calendar: String, title: String, location: String? = nil, notes: String? = nil,
        start: Date, end: Date, isAllDay: Bool = false, timeZone: String? = nil,
        organizer: EventPerson? = nil, attendees: [EventPerson] = [], recurrenceRule: String? = nil,
        status: String? = nil
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
        self.status = status
    }
}

/// One occurrence of an event in a range.
public struct EventOccurrence: Sendable, Equatable, Codable {
    public var eventID: EventID
    public var start: Date
    public var end: Date
    /// For an overridden occurrence (a VEVENT with `RECURRENCE-ID`), the id under which
    /// `event(_:)` gives its own title, people and times; `nil` for a plain occurrence.
    public var instanceID: EventID?

    public init(eventID: EventID, start: Date, end: Date, instanceID: EventID? = nil) {
        self.eventID = eventID
        self.start = start
        self.end = end
        self.instanceID = instanceID
    }
}

/// An event taken out of the calendar: what `restore` needs to put it back byte-exact.
public struct RemovedEvent: Sendable, Equatable, Codable {
    public var event: CalendarEvent
    /// The component's original text (`BEGIN:VEVENT` … `END:VEVENT`, folded lines and line
    /// endings as they were, every VEVENT of the series including overridden occurrences).
    public var original: [UInt8]
    /// Where each VEVENT was, so `restore` can put it back at the same byte (`ICSCalendarStore`);
    /// `nil` when the store keeps no placement (they then go before `END:VCALENDAR`).
    public var placement: RemovalPlacement?

    public init(event: CalendarEvent, original: [UInt8], placement: RemovalPlacement? = nil) {
        self.event = event
        self.original = original
        self.placement = placement
    }
}

/// Where a removed event's VEVENTs were in their file: what makes remove-then-restore
/// byte-identical (the rule is `ICSCalendarStore.restore(_:)`'s).
public struct RemovalPlacement: Sendable, Equatable, Codable {
    /// One VEVENT's bytes in `RemovedEvent.original`, in file order.
    public struct Fragment: Sendable, Equatable, Codable {
        /// Its first byte's offset in the file before the removal.
        public var offset: Int
        /// Its length in bytes (the fragments' lengths add up to `original.count`).
        public var length: Int
        /// Up to 256 bytes that came right before it in the file.
        public var before: [UInt8]
        /// Up to 256 bytes that came right after it in the file.
        public var after: [UInt8]

        public init(offset: Int, length: Int, before: [UInt8], after: [UInt8]) {
            self.offset = offset
            self.length = length
            self.before = before
            self.after = after
        }
    }

    public var fragments: [Fragment]
    /// SHA-256 (hex) of the whole file as the removal wrote it.
    public var fileDigest: String

    public init(fragments: [Fragment], fileDigest: String) {
        self.fragments = fragments
        self.fileDigest = fileDigest
    }
}
