import Foundation

/// A job registered in code: a name, when it runs (cron in an IANA time zone) and what it does.
///
/// The body returns a one-line summary of what it did ("deleted 120 expired tokens"), recorded
/// as the run's message; throwing records a failed run with the error's description.
public struct Job: Sendable {
    /// The unique name, e.g. `accounts.purge-refresh-tokens` (1–100 of `a-z 0-9 . _ -`).
    public let name: String
    /// When it runs.
    public let schedule: CronSchedule
    /// The zone the schedule's wall-clock times are in.
    public let timeZone: TimeZone
    /// The zone's identifier as registered (`UTC` stays `UTC`; Foundation may report `GMT`).
    public let timeZoneIdentifier: String
    /// The work; it should page (`JobContext.forEachPage`) rather than scan without bound.
    public let body: @Sendable (JobContext) async throws -> String

    /// Creates a job.
    /// - Parameters:
    ///   - name: the unique name.
    ///   - schedule: a cron expression (`*/15 * * * *`, `30 2 * * mon-fri`, `@daily`).
    ///   - timeZone: an IANA zone identifier (`UTC` by default).
    ///   - body: the work; returns a summary.
    /// - Throws: `JobError.invalidName`, `.invalidSchedule`, `.unknownTimeZone`.
    public init(
        _ name: String, schedule: String, timeZone: String = "UTC",
        body: @escaping @Sendable (JobContext) async throws -> String
    ) throws(JobError) {
        guard Self.isValidName(name) else { throw .invalidName(name) }
        do {
            self.schedule = try CronSchedule(schedule)
        } catch {
            throw .invalidSchedule(name: name, error)
        }
        guard let zone = TimeZone(identifier: timeZone) else { throw .unknownTimeZone(timeZone) }
        self.name = name
        self.timeZone = zone
        self.timeZoneIdentifier = timeZone
        self.body = body
    }

    /// Whether `name` is 1–100 characters of `a-z 0-9 . _ -`.
    package static func isValidName(_ name: String) -> Bool {
        (1...100).contains(name.utf8.count)
            && name.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || [0x2E, 0x5F, 0x2D].contains($0) }
    }
}

/// Why a job could not be registered, found or run.
public enum JobError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A name that is empty, too long or has characters outside `a-z 0-9 . _ -`.
    case invalidName(String)
    /// The cron expression did not parse.
    case invalidSchedule(name: String, CronParseError)
    /// Not an IANA time zone identifier this system knows.
    case unknownTimeZone(String)
    /// Two jobs registered under one name.
    case duplicateName(String)
    /// No job is registered under this name.
    case unknownJob(String)
    /// The run stopped between pages because the server is shutting down.
    case interrupted
    /// Paging went past its page limit (the body keeps reporting full pages).
    case tooManyPages(Int)

    /// A one-line description.
    public var description: String {
        switch self {
        case .invalidName(let name): "invalid job name \"\(name)\": use 1–100 of a-z 0-9 . _ -"
        case .invalidSchedule(let name, let error): "job \(name): \(error)"
        case .unknownTimeZone(let zone): "unknown time zone \"\(zone)\""
        case .duplicateName(let name): "a job named \(name) is already registered"
        case .unknownJob(let name): "no job named \(name)"
        case .interrupted: "interrupted by shutdown"
        case .tooManyPages(let pages): "stopped after \(pages) full pages"
        }
    }
}
