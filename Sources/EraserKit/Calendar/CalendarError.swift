/// The calendar's reasons for failing.
public enum CalendarError: EraserErrorReason {
    /// No event has this id.
    case notFound(EventID)
    /// An .ics file is not valid RFC 5545 where it matters (the line and what is wrong).
    case malformed(file: String, line: Int, reason: String)
    /// A file could not be read or written.
    case fileSystem(path: String, reason: String)

    public var code: String {
        switch self {
        case .notFound: "not_found"
        case .malformed: "malformed"
        case .fileSystem: "file_system"
        }
    }

    public var message: String {
        switch self {
        case .notFound(let id): "No calendar event has the id \(id)."
        case .malformed(let file, let line, let reason): "\(file), line \(line): \(reason)."
        case .fileSystem(let path, let reason): "Could not use \(path): \(reason)."
        }
    }
}
