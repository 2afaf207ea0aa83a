import Foundation
import KindredTestSupport

@testable import EraserKit

/// Builders the calendar tests share.
enum CalendarFixture {
    /// A calendar file: `BEGIN:VCALENDAR`, `VERSION`, `PRODID`, the lines, `END:VCALENDAR`, each
    /// line ended by `lineBreak`.
    static func calendar(_ lines: [String], lineBreak: String = "\r\n") -> [UInt8] {
        let all = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//EraserKit tests//EN"] + lines + ["END:VCALENDAR"]
        return Array(all.map { $0 + lineBreak }.joined().utf8)
    }

    /// One VEVENT's lines.
    static func event(_ uid: String, _ lines: [String]) -> [String] {
        ["BEGIN:VEVENT", "UID:\(uid)"] + lines + ["END:VEVENT"]
    }

    /// A folder holding `files`, and a store over it (floating times in `floating`).
    static func store(_ files: [String: [UInt8]], floating: TimeZone = TimeZone(identifier: "UTC")!,
                      limits: RecurrenceLimits = RecurrenceLimits()) throws -> CalendarFolder {
        let folder = try TemporaryDirectory()
        for (name, bytes) in files { try folder.write(name, bytes) }
        return CalendarFolder(folder: folder, store: try ICSCalendarStore(location: folder.url, floatingTimeZone: floating, limits: limits))
    }

    /// The instant of a UTC wall-clock time.
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Date {
        let wall = LocalDateTime(date: CivilDate(year: year, month: month, day: day)!, hour: hour, minute: minute, second: 0)
        return Date(timeIntervalSince1970: TimeInterval(wall.wallSeconds))
    }

    /// `date` on the wall clock of `zone`, as iCalendar writes it (`19970902T090000`).
    static func wall(_ date: Date, _ zone: String) -> String {
        let instant = Int64(date.timeIntervalSince1970)
        return SystemZone(timeZone: TimeZone(identifier: zone)!).wall(at: instant).description
    }

    /// Parses `bytes` as the calendar `name`.
    static func loaded(_ bytes: [UInt8], name: String = "t") throws -> LoadedCalendar {
        try LoadedCalendar.parse(bytes, url: URL(fileURLWithPath: "/calendars/\(name).ics"), name: name)
    }

    /// Runs `body` and returns the calendar error it throws, or `nil`.
    static func calendarError(_ body: () throws -> Void) -> CalendarError? {
        do {
            try body()
            return nil
        } catch let error as EraserKitError {
            if case .calendar(let reason) = error { return reason }
            return nil
        } catch let error as CalendarError {
            return error
        } catch {
            return nil
        }
    }
}

/// A temporary folder of .ics files and a store over it; the folder lives as long as this.
final class CalendarFolder: Sendable {
    let folder: TemporaryDirectory
    let store: ICSCalendarStore

    init(folder: TemporaryDirectory, store: ICSCalendarStore) {
        self.folder = folder
        self.store = store
    }

    /// A file of the folder.
    func url(_ name: String) -> URL { folder.url.appendingPathComponent(name) }

    /// A file's bytes now.
    func bytes(_ name: String) throws -> [UInt8] { try folder.read(name) }
}

extension Array where Element == UInt8 {
    /// The bytes as UTF-8 text.
    var text: String { String(decoding: self, as: UTF8.self) }
}
