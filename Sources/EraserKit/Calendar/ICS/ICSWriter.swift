import Foundation

/// Writes iCalendar text (RFC 5545) for a store that has no file to copy an event's bytes from —
/// EventKit's `EventKitCalendarStore` — so that its `original(_:)` can hand the Vault a VEVENT
/// that `ICSParser` and every other iCalendar reader understand.
///
/// Content lines are folded at 75 octets without splitting a UTF-8 character (§3.1), TEXT values
/// escaped (§3.3.11), parameter values quoted when they hold `:` `;` or `,` and their `"`, `^` and
/// line breaks encoded as RFC 6868 says, dates written as DATE or DATE-TIME (§3.3.4, §3.3.5).
/// Lines end with CRLF. The output depends only on the input: the same event gives the same
/// bytes, which is what `CalendarStore.remove(_:expecting:)` compares.
public enum ICSWriter {
    /// A DATE or DATE-TIME to write, and how.
    public struct Time: Sendable, Equatable {
        /// How the value is written.
        public enum Form: Sendable, Equatable {
            /// `VALUE=DATE`: the day `date` falls on in the zone (an all-day event).
            case date(TimeZone)
            /// A UTC DATE-TIME: `20240105T090000Z`.
            case utc
            /// The wall-clock time in the zone, with `TZID=` its identifier (an Olson name, which
            /// `TimeZoneResolver` reads without a `VTIMEZONE`).
            case zoned(TimeZone)
            /// The wall-clock time in the zone, without `TZID`: a floating time.
            case floating(TimeZone)
        }

        /// The instant (whole seconds are written; years 1 to 9999).
        public var date: Date
        public var form: Form

        public init(date: Date, form: Form) {
            self.date = date
            self.form = form
        }
    }

    /// An `ORGANIZER` or `ATTENDEE` (§3.8.4.3, §3.8.4.1).
    public struct Person: Sendable, Equatable {
        /// `CN`, when known.
        public var name: String?
        /// The calendar address, a URI (`mailto:sam@example.com`, `tel:+905321234567`).
        public var address: String
        /// `ROLE` (`REQ-PARTICIPANT`, `CHAIR`, …), when known.
        public var role: String?
        /// `PARTSTAT` (`ACCEPTED`, `DECLINED`, …), when known.
        public var participationStatus: String?

        public init(name: String? = nil, address: String, role: String? = nil, participationStatus: String? = nil) {
            self.name = name
            self.address = address
            self.role = role
            self.participationStatus = participationStatus
        }
    }

    /// An `RRULE` (§3.3.10), its parts in the order they are written.
    public struct Rule: Sendable, Equatable {
        public enum Frequency: String, Sendable {
            case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"
        }

        /// A `BYDAY` entry: a weekday numbered as Foundation and EventKit number them (1 is
        /// Sunday, 7 Saturday), with an ordinal for "the second Monday" (2) or "the last
        /// Friday" (-1).
        public struct Day: Sendable, Equatable {
            public var weekday: Int
            public var ordinal: Int?

            public init(weekday: Int, ordinal: Int? = nil) {
                self.weekday = weekday
                self.ordinal = ordinal
            }
        }

        public var frequency: Frequency
        public var interval: Int
        public var count: Int?
        /// The last start allowed: a DATE for an all-day series, else UTC (§3.3.10 wants
        /// `UNTIL` in UTC when `DTSTART` has a zone).
        public var until: Time?
        public var byDay: [Day]
        public var byMonthDay: [Int]
        public var byMonth: [Int]
        public var byWeekNumber: [Int]
        public var byYearDay: [Int]
        public var bySetPosition: [Int]
        /// `WKST`, numbered as `Day.weekday`; `nil` leaves the default (Monday).
        public var weekStart: Int?

        public init(
            frequency: Frequency, interval: Int = 1, count: Int? = nil, until: Time? = nil, byDay: [Day] = [],
            byMonthDay: [Int] = [], byMonth: [Int] = [], byWeekNumber: [Int] = [], byYearDay: [Int] = [],
            bySetPosition: [Int] = [], weekStart: Int? = nil
        ) {
            self.frequency = frequency
            self.interval = interval
            self.count = count
            self.until = until
            self.byDay = byDay
            self.byMonthDay = byMonthDay
            self.byMonth = byMonth
            self.byWeekNumber = byWeekNumber
            self.byYearDay = byYearDay
            self.bySetPosition = bySetPosition
            self.weekStart = weekStart
        }

        /// The rule's value: `FREQ=MONTHLY;INTERVAL=2;BYDAY=2MO;COUNT=10`. An interval of 1 and
        /// empty lists are left out; a weekday outside 1…7 is skipped.
        public var value: String {
            var parts = ["FREQ=\(frequency.rawValue)"]
            if interval > 1 { parts.append("INTERVAL=\(interval)") }
            if let until { parts.append("UNTIL=\(ICSWriter.value(of: until).value)") }
            if let count { parts.append("COUNT=\(count)") }
            let days = byDay.compactMap { day in
                ICSWriter.weekdayCode(day.weekday).map { code in (day.ordinal.map(String.init) ?? "") + code }
            }
            if !days.isEmpty { parts.append("BYDAY=" + days.joined(separator: ",")) }
            for (name, numbers) in [("BYMONTHDAY", byMonthDay), ("BYMONTH", byMonth), ("BYWEEKNO", byWeekNumber),
                                    ("BYYEARDAY", byYearDay), ("BYSETPOS", bySetPosition)] where !numbers.isEmpty {
                parts.append(name + "=" + numbers.map(String.init).joined(separator: ","))
            }
            if let weekStart, let code = ICSWriter.weekdayCode(weekStart) { parts.append("WKST=\(code)") }
            return parts.joined(separator: ";")
        }
    }

    /// A property written as given: its name (`X-…` or any other), parameters, and its value
    /// already in iCalendar form (escape TEXT with `escapeText`).
    public struct Property: Sendable, Equatable {
        public var name: String
        public var parameters: [ICSParameter]
        public var value: String

        public init(name: String, parameters: [ICSParameter] = [], value: String) {
            self.name = name
            self.parameters = parameters
            self.value = value
        }
    }

    /// One VEVENT (§3.6.1). Empty text (`summary`, `location`, `notes`) is left out.
    public struct Event: Sendable, Equatable {
        public var uid: String
        /// `DTSTAMP` (written in UTC). For the same bytes on every call, pass a date of the event
        /// (its last modification), not the time of writing.
        public var stamp: Date
        public var start: Time
        /// `DTEND`, exclusive (the day after the last day for an all-day event).
        public var end: Time?
        /// `RECURRENCE-ID`, for a VEVENT that overrides one occurrence of a series.
        public var recurrenceID: Time?
        public var summary: String?
        public var location: String?
        public var notes: String?
        /// `STATUS`: `CONFIRMED`, `TENTATIVE` or `CANCELLED`.
        public var status: String?
        public var url: String?
        public var organizer: Person?
        public var attendees: [Person]
        public var rules: [Rule]
        public var created: Date?
        public var lastModified: Date?
        /// Written last, in order.
        public var extra: [Property]

        public init(
            uid: String, stamp: Date, start: Time, end: Time? = nil, recurrenceID: Time? = nil, summary: String? = nil,
            location: String? = nil, notes: String? = nil, status: String? = nil, url: String? = nil,
            organizer: Person? = nil, attendees: [Person] = [], rules: [Rule] = [], created: Date? = nil,
            lastModified: Date? = nil, extra: [Property] = []
        ) {
            self.uid = uid
            self.stamp = stamp
            self.start = start
            self.end = end
            self.recurrenceID = recurrenceID
            self.summary = summary
            self.location = location
            self.notes = notes
            self.status = status
            self.url = url
            self.organizer = organizer
            self.attendees = attendees
            self.rules = rules
            self.created = created
            self.lastModified = lastModified
            self.extra = extra
        }
    }

    // MARK: - Components

    /// The VEVENT's bytes, `BEGIN:VEVENT` to `END:VEVENT` and its CRLF.
    public static func vevent(_ event: Event) -> [UInt8] {
        var out = line("BEGIN", value: "VEVENT")
        out += line("UID", value: escapeText(event.uid))
        out += line("DTSTAMP", value: value(of: Time(date: event.stamp, form: .utc)).value)
        out += time("DTSTART", event.start)
        if let end = event.end { out += time("DTEND", end) }
        if let recurrenceID = event.recurrenceID { out += time("RECURRENCE-ID", recurrenceID) }
        for rule in event.rules { out += line("RRULE", value: rule.value) }
        for (name, text) in [("SUMMARY", event.summary), ("LOCATION", event.location), ("DESCRIPTION", event.notes)] {
            if let text, !text.isEmpty { out += line(name, value: escapeText(text)) }
        }
        if let status = event.status { out += line("STATUS", value: status) }
        if let url = event.url { out += line("URL", parameters: [ICSParameter(name: "VALUE", values: ["URI"])], value: url) }
        if let organizer = event.organizer { out += person("ORGANIZER", organizer) }
        for attendee in event.attendees { out += person("ATTENDEE", attendee) }
        if let created = event.created { out += line("CREATED", value: value(of: Time(date: created, form: .utc)).value) }
        if let lastModified = event.lastModified {
            out += line("LAST-MODIFIED", value: value(of: Time(date: lastModified, form: .utc)).value)
        }
        for property in event.extra { out += line(property.name, parameters: property.parameters, value: property.value) }
        out += line("END", value: "VEVENT")
        return out
    }

    /// A whole calendar around `components` (each a component's bytes, such as `vevent`'s):
    /// `BEGIN:VCALENDAR`, `VERSION:2.0`, `PRODID`, the components, `END:VCALENDAR`.
    public static func calendar(_ components: [[UInt8]], productID: String = "-//Kindred//Ex-Eraser//EN") -> [UInt8] {
        line("BEGIN", value: "VCALENDAR") + line("VERSION", value: "2.0") + line("PRODID", value: escapeText(productID))
            + components.joined() + line("END", value: "VCALENDAR")
    }

    // MARK: - Lines

    /// One content line (§3.1): `NAME;PARAM=value:VALUE`, folded, ended by CRLF.
    /// - Parameters:
    ///   - name: the property's name, written upper-cased.
    ///   - parameters: written in order; values quoted and encoded by `parameterValue`.
    ///   - value: the value as it goes on the line (already escaped for TEXT).
    public static func line(_ name: String, parameters: [ICSParameter] = [], value: String) -> [UInt8] {
        var text = name.uppercased()
        for parameter in parameters {
            text += ";" + parameter.name.uppercased() + "=" + parameter.values.map(parameterValue).joined(separator: ",")
        }
        text += ":" + value
        return fold(Array(text.utf8))
    }

    /// Folds one unfolded line's bytes (no line break in them) into lines of at most 75 octets,
    /// each continuation starting with a space (which counts in its 75), never splitting a UTF-8
    /// character, and ends each with CRLF (§3.1).
    public static func fold(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 37 + 2)
        var start = 0
        var room = 75
        while bytes.count - start > room {
            var end = start + room
            // Back off to the first byte of a UTF-8 character (never below one byte a line).
            while end > start + 1, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            out += bytes[start..<end]
            out += [0x0D, 0x0A, 0x20]
            start = end
            room = 74
        }
        out += bytes[start...]
        out += [0x0D, 0x0A]
        return out
    }

    /// A TEXT value escaped (§3.3.11): `\` `;` `,` with a backslash, a line break (CRLF, CR or LF)
    /// as `\n`. Other control characters, which TEXT cannot hold, are left out; tabs are kept.
    public static func escapeText(_ text: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        var afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\r": out += "\\n"
            case "\n": if !afterCR { out += "\\n" }
            case "\t": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A parameter value (§3.2): `"`, `^` and line breaks encoded as RFC 6868 says (`^'`, `^^`,
    /// `^n`), other control characters left out, and the whole quoted when it holds `:` `;` or `,`.
    public static func parameterValue(_ value: String) -> String {
        var out = ""
        var afterCR = false
        for scalar in value.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            switch scalar {
            case "\"": out += "^'"
            case "^": out += "^^"
            case "\r": out += "^n"
            case "\n": if !afterCR { out += "^n" }
            case "\t": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out.contains(where: { $0 == ":" || $0 == ";" || $0 == "," }) ? "\"" + out + "\"" : out
    }

    /// A time's parameters (`VALUE=DATE`, `TZID=…`) and value (`20240105`, `20240105T090000Z`,
    /// `20240105T090000`).
    public static func value(of time: Time) -> (parameters: [ICSParameter], value: String) {
        let seconds = Int64(min(max(time.date.timeIntervalSince1970, -62_135_596_800), 253_402_300_799).rounded(.down))
        switch time.form {
        case .date(let zone):
            return ([ICSParameter(name: "VALUE", values: ["DATE"])], SystemZone(timeZone: zone).wall(at: seconds).date.description)
        case .utc:
            return ([], UTCZone().wall(at: seconds).description + "Z")
        case .zoned(let zone):
            return ([ICSParameter(name: "TZID", values: [zone.identifier])], SystemZone(timeZone: zone).wall(at: seconds).description)
        case .floating(let zone):
            return ([], SystemZone(timeZone: zone).wall(at: seconds).description)
        }
    }

    /// iCalendar's two letters for a weekday numbered 1 (Sunday) to 7 (Saturday).
    static func weekdayCode(_ weekday: Int) -> String? {
        let codes = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
        return (1...7).contains(weekday) ? codes[weekday - 1] : nil
    }

    private static func time(_ name: String, _ time: Time) -> [UInt8] {
        let (parameters, text) = value(of: time)
        return line(name, parameters: parameters, value: text)
    }

    private static func person(_ name: String, _ person: Person) -> [UInt8] {
        var parameters: [ICSParameter] = []
        if let cn = person.name, !cn.isEmpty { parameters.append(ICSParameter(name: "CN", values: [cn])) }
        if let role = person.role { parameters.append(ICSParameter(name: "ROLE", values: [role])) }
        if let status = person.participationStatus { parameters.append(ICSParameter(name: "PARTSTAT", values: [status])) }
        return line(name, parameters: parameters, value: person.address)
    }
}
