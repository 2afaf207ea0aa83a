/// The calendar's reasons for failing.
public enum CalendarError: EraserErrorReason {
    /// No event has this id.
    case notFound(EventID)
    /// An .ics file is not valid RFC 5545 where it matters (the line and what is wrong).
    case malformed(file: String, line: Int, reason: String)
    /// A file could not be read or written.
    case fileSystem(path: String, reason: String)
    /// A `TZID` that is neither a zone of the system's time-zone database (nor a well-known
    /// Windows zone name) nor defined by a `VTIMEZONE` of the file.
    case unknownTimeZone(file: String, line: Int, tzid: String)
    /// An `RRULE` part this reader does not expand (`FREQ=HOURLY`, `BYWEEKNO`, …): refused rather
    /// than answered wrongly.
    case unsupportedRule(file: String, line: Int, reason: String)
    /// A recurrence produced more occurrences (or walked more periods) than the limit in the
    /// range asked for: a runaway rule or a range too wide for it.
    case tooManyOccurrences(file: String, line: Int, limit: Int)
    /// Restoring would add the event a second time: the calendar already holds its VEVENTs.
    case alreadyPresent(EventID)
    /// No calendar of the store has this name (a single-file store restores into its file only).
    case unknownCalendar(String)
    /// The event's VEVENTs are no longer the bytes read before (another program changed it):
    /// nothing was removed.
    case changed(EventID)
    /// The user did not give the app access to their calendars (EventKit), or the system
    /// refused a change. The text says what was refused.
    case accessDenied(String)

    public var code: String {
        switch self {
        case .notFound: "not_found"
        case .malformed: "malformed"
        case .fileSystem: "file_system"
        case .unknownTimeZone: "unknown_time_zone"
        case .unsupportedRule: "unsupported_rule"
        case .tooManyOccurrences: "too_many_occurrences"
        case .alreadyPresent: "already_present"
        case .unknownCalendar: "unknown_calendar"
        case .changed: "changed"
        case .accessDenied: "access_denied"
        }
    }

    public var message: String {
        switch self {
        case .notFound(let id): "No calendar event has the id \(id)."
        case .malformed(let file, let line, let reason): "\(file), line \(line): \(reason)."
        case .fileSystem(let path, let reason): "Could not use \(path): \(reason)."
        case .unknownTimeZone(let file, let line, let tzid):
            "\(file), line \(line): the time zone \"\(tzid)\" is unknown and the file does not define it."
        case .unsupportedRule(let file, let line, let reason):
            "\(file), line \(line): this repeat rule is not supported (\(reason))."
        case .tooManyOccurrences(let file, let line, let limit):
            "\(file), line \(line): the event repeats more than \(limit) times in the range asked for."
        case .alreadyPresent(let id): "The event \(id) is already in its calendar."
        case .unknownCalendar(let name): "There is no calendar named \(name)."
        case .changed(let id): "The event \(id) changed since it was read; nothing was removed."
        case .accessDenied(let what): "Not allowed: \(what)."
        }
    }
}
