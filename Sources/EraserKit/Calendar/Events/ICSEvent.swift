/// One VEVENT, its values interpreted.
struct ICSEvent: Sendable {
    /// The component (its bytes and line).
    var component: ICSComponent
    var uid: String?
    /// `RECURRENCE-ID`: which occurrence of its series this VEVENT replaces.
    var recurrenceID: ICSTime?
    var summary: String?
    var location: String?
    var description: String?
    /// `STATUS`, upper-cased.
    var status: String?
    var organizer: EventPerson?
    var attendees: [EventPerson]
    var start: ICSTime
    var length: OccurrenceLength
    /// The end written with `DTEND`, when it was (else `start` + `length`).
    var end: ICSTime?
    /// The `RRULE`s (usually one), or why they cannot be expanded: kept apart so that an
    /// unsupported rule fails only its expansion, not reading or removing the event.
    var rules: Result<[RecurrenceRule], CalendarError>
    /// The first `RRULE` as written.
    var ruleText: String?
    var recurrenceDates: [RecurrenceDate]
    var exceptionDates: [ICSTime]

    var isCancelled: Bool { status == "CANCELLED" }
}

/// An `RDATE` entry: a start, or a period with its own end (`VALUE=PERIOD`).
enum RecurrenceDate: Sendable {
    case start(ICSTime)
    case period(ICSTime, end: ICSTime)
    case periodWithDuration(ICSTime, ICSDuration)
}

/// How long each occurrence lasts (RFC 5545 §3.8.5.3): a `DTEND` gives the exact time between
/// it and `DTSTART` to every occurrence (whole days for all-day events), a `DURATION` its nominal
/// days and exact seconds; with neither, a date lasts one day and a date-time none.
enum OccurrenceLength: Sendable, Equatable {
    /// The same wall-clock time `days` later, then `seconds` more.
    case nominal(days: Int, seconds: Int)
    /// So many seconds.
    case exact(seconds: Int64)

    /// The end of an occurrence starting at `wall` (instant `start`) in `zone`.
    func end(wall: LocalDateTime, start: Int64, zone: any ICSZone) -> Int64 {
        switch self {
        case .exact(let seconds): return start + seconds
        case .nominal(let days, let seconds):
            let dayEnd = days == 0 ? start : zone.instant(for: wall.adding(days: days))
            return dayEnd + Int64(seconds)
        }
    }

    /// The most it can last, in seconds (for looking back from a range's start).
    var maximumSeconds: Int64 {
        switch self {
        case .exact(let seconds): max(0, seconds)
        case .nominal(let days, let seconds): Int64(max(0, days)) * 90_000 + Int64(max(0, seconds))
        }
    }
}
