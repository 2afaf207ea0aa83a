import Foundation
import KindredTestSupport

/// Runs the Python side of the calendar tests (`Support/Python/calendar_fixtures.py` and
/// `calendar_peer.py`): calendars written by `icalendar`, read by it and expanded by
/// `recurring_ical_events`, an implementation independent of EraserKit's.
///
/// When `python3` or a module is missing the tests are skipped, unless `CI=true`: then they run
/// and fail with the reason.
enum PythonCalendar {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Support/Python")

    static func imports(_ module: String) -> Bool {
        (try? ChildProcess.run("/usr/bin/env", ["python3", "-c", "import \(module)"]))?.status == 0
    }

    /// Whether `icalendar` imports.
    static let hasICalendar = imports("icalendar")
    /// Whether `recurring_ical_events` imports too.
    static let hasRecurringEvents = hasICalendar && imports("recurring_ical_events")

    static var shouldRunFixtures: Bool { hasICalendar || ChildProcess.isCI }
    static var shouldRunExpansion: Bool { hasRecurringEvents || ChildProcess.isCI }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes the fixture calendars (`people.ics`, `rules.ics`) into `folder`.
    static func writeFixtures(into folder: URL) throws {
        guard hasICalendar else {
            throw Failure(description: "python3 with `icalendar` is required (pip install icalendar)")
        }
        try run(["calendar_fixtures.py", folder.path])
    }

    /// One VEVENT as `icalendar` reads it.
    struct Event: Decodable {
        struct Person: Decodable {
            let cn: String?
            let value: String
        }
        let uid: String?
        let recurrence_id: String?
        let summary: String?
        let location: String?
        let description: String?
        let status: String?
        let organizer: Person?
        let attendees: [Person]
        let start: Int64
        let end: Int64
    }

    /// Every VEVENT of `file` as `icalendar` reads it.
    static func events(_ file: URL) throws -> [Event] {
        try JSONDecoder().decode([Event].self, from: Data(try run(["calendar_peer.py", "events", file.path])))
    }

    /// One occurrence as `recurring_ical_events` gives it.
    struct Occurrence: Decodable, Hashable, CustomStringConvertible {
        let uid: String
        let start: Int64
        let end: Int64
        var description: String {
            "\(uid) \(Date(timeIntervalSince1970: TimeInterval(start)))…\(Date(timeIntervalSince1970: TimeInterval(end)))"
        }
    }

    /// The occurrences of `file` from `start` to `end`.
    static func expand(_ file: URL, from start: Date, to end: Date) throws -> [Occurrence] {
        guard hasRecurringEvents else {
            throw Failure(description: "python3 with `recurring_ical_events` is required (pip install recurring-ical-events)")
        }
        let output = try run(["calendar_peer.py", "expand", file.path,
                              String(Int64(start.timeIntervalSince1970)), String(Int64(end.timeIntervalSince1970))])
        return try JSONDecoder().decode([Occurrence].self, from: Data(output))
    }

    @discardableResult
    private static func run(_ arguments: [String]) throws -> [UInt8] {
        var arguments = arguments
        arguments[0] = folder.appendingPathComponent(arguments[0]).path
        let result = try ChildProcess.run("/usr/bin/env", ["python3"] + arguments)
        guard result.status == 0 else {
            throw Failure(description: "\(arguments[0]) exited with \(result.status): \(result.stderr)")
        }
        return result.stdout
    }
}
