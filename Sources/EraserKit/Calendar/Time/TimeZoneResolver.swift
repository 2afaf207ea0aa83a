import Foundation

/// Turns a `TZID` into a zone, for one file. In order:
/// 1. the system's time-zone database (Foundation's `TimeZone(identifier:)`): `Europe/Istanbul`;
/// 2. the same after dropping a leading path (`/mozilla.org/20070129_1/Europe/Istanbul`,
///    `/freeassociation.sourceforge.net/Tzfile/Europe/Istanbul`);
/// 3. a well-known Windows zone name (`Turkey Standard Time`, `WindowsTimeZones`);
/// 4. the file's own `VTIMEZONE` with that `TZID`, its rules read as written (`VTimeZoneZone`).
/// Anything else is `CalendarError.unknownTimeZone`. So a known Olson or Windows name is read
/// with the system's rules (which know past rule changes) even when the file carries a
/// `VTIMEZONE` for it, as Python's `icalendar` does.
final class TimeZoneResolver {
    private let file: String
    private let definitions: [String: ICSComponent]
    private var resolved: [String: any ICSZone] = [:]

    init(document: ICSDocument) {
        file = document.fileName
        var definitions: [String: ICSComponent] = [:]
        for component in document.timeZones {
            if let tzid = component.property("TZID")?.value.trimmingASCIISpaces(), definitions[tzid] == nil {
                definitions[tzid] = component
            }
        }
        self.definitions = definitions
    }

    /// The zone `tzid` names.
    /// - Parameter line: the line that uses it, for the error.
    /// - Throws: `CalendarError.unknownTimeZone`, or an error in the file's `VTIMEZONE` for it.
    func zone(_ tzid: String, line: Int) throws(CalendarError) -> any ICSZone {
        let tzid = tzid.trimmingASCIISpaces()
        if let zone = resolved[tzid] { return zone }
        let zone: any ICSZone
        if let system = Self.systemZone(tzid) {
            zone = system
        } else if let definition = definitions[tzid] {
            zone = try VTimeZoneZone.build(definition, tzid: tzid, file: file)
        } else {
            throw .unknownTimeZone(file: file, line: line, tzid: tzid)
        }
        resolved[tzid] = zone
        return zone
    }

    /// Steps 1 to 3: a zone of the system's database for `tzid`, if there is one.
    static func systemZone(_ tzid: String) -> SystemZone? {
        if let zone = TimeZone(identifier: tzid) { return SystemZone(timeZone: zone) }
        if tzid.hasPrefix("/") {
            var parts = tzid.split(separator: "/")
            while parts.count > 1 {
                parts.removeFirst()
                if let zone = TimeZone(identifier: parts.joined(separator: "/")) { return SystemZone(timeZone: zone) }
            }
        }
        if let olson = WindowsTimeZones.olsonIdentifier(for: tzid), let zone = TimeZone(identifier: olson) {
            return SystemZone(timeZone: zone)
        }
        return nil
    }
}
