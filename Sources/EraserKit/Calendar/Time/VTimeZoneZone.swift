/// A zone defined by a file's `VTIMEZONE` (RFC 5545 §3.6.5), for a `TZID` the system's
/// time-zone database does not know: its `STANDARD` and `DAYLIGHT` observances, each starting at
/// its `DTSTART` (local time, read with `TZOFFSETFROM`) and again at every `RRULE` and `RDATE`
/// occurrence, after which `TZOFFSETTO` is in force. A rule's onsets are worked out from 1900
/// (from its `DTSTART` when it has a `COUNT`) to 2100: the last offset holds after that, and the
/// earliest onset's `TZOFFSETFROM` before it.
struct VTimeZoneZone: ICSZone {
    let identifier: String
    /// Onset instants, ascending.
    private let onsets: [Int64]
    /// The offset from each onset on.
    private let offsets: [Int]
    private let initialOffset: Int

    func utcOffset(at instant: Int64) -> Int {
        var low = 0
        var high = onsets.count
        while low < high {
            let middle = (low + high) / 2
            if onsets[middle] <= instant { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? initialOffset : offsets[low - 1]
    }

    /// The first and last years whose rule onsets are worked out.
    static let firstYear = 1900
    static let lastYear = 2100

    /// Builds the zone from a `VTIMEZONE` component.
    /// - Throws: `CalendarError.malformed` for a missing or bad `DTSTART`, `TZOFFSETFROM` or
    ///   `TZOFFSETTO`, or a `VTIMEZONE` with no observance; `unsupportedRule` or
    ///   `tooManyOccurrences` from an observance's `RRULE`.
    static func build(_ component: ICSComponent, tzid: String, file: String) throws(CalendarError) -> VTimeZoneZone {
        var transitions: [(instant: Int64, offset: Int, from: Int)] = []
        let observances = component.children.filter { $0.name == "STANDARD" || $0.name == "DAYLIGHT" }
        guard !observances.isEmpty else {
            throw .malformed(file: file, line: component.line, reason: "VTIMEZONE \(tzid) has no STANDARD or DAYLIGHT")
        }
        let horizon = LocalDateTime(date: CivilDate(year: lastYear, month: 12, day: 31)!, secondOfDay: 86_399)
        for observance in observances {
            func required(_ name: String) throws(CalendarError) -> ICSProperty {
                guard let property = observance.property(name) else {
                    throw .malformed(file: file, line: observance.line, reason: "\(observance.name) of VTIMEZONE \(tzid) has no \(name)")
                }
                return property
            }
            let from = try offset(try required("TZOFFSETFROM"), file: file)
            let to = try offset(try required("TZOFFSETTO"), file: file)
            let startProperty = try required("DTSTART")
            guard let start = ICSRawTime.parse(startProperty.value) else {
                throw .malformed(file: file, line: startProperty.line, reason: "DTSTART \"\(startProperty.value)\" is not a date-time")
            }
            var walls = [start.wall]
            for ruleProperty in observance.properties("RRULE") {
                let rule = try RecurrenceRule.parse(ruleProperty, file: file)
                let until = rule.until.map { until in
                    until.form == .utc ? LocalDateTime(wallSeconds: until.wall.wallSeconds + Int64(from)) : until.wall
                }
                let expander = RecurrenceExpander(rule: rule, start: start.wall, isDate: false)
                do {
                    walls += try expander.occurrences(
                        until: until, count: rule.count, windowEnd: horizon,
                        skipTo: CivilDate(year: firstYear, month: 1, day: 1), limits: RecurrenceLimits())
                } catch {
                    throw .tooManyOccurrences(file: file, line: ruleProperty.line, limit: error.limit)
                }
            }
            var instants = walls.map { $0.wallSeconds - Int64(from) }
            for rdate in observance.properties("RDATE") {
                for item in ICSText.splitList(rdate.value) {
                    guard let time = ICSRawTime.parse(item) else {
                        throw .malformed(file: file, line: rdate.line, reason: "RDATE \"\(item)\" is not a date-time")
                    }
                    instants.append(time.form == .utc ? time.wall.wallSeconds : time.wall.wallSeconds - Int64(from))
                }
            }
            transitions += instants.map { ($0, to, from) }
        }
        transitions.sort { $0.instant < $1.instant }
        return VTimeZoneZone(
            identifier: tzid, onsets: transitions.map(\.instant), offsets: transitions.map(\.offset),
            initialOffset: transitions.first?.from ?? 0)
    }

    /// Reads a UTC offset (`+0300`, `-0500`, `+053000`).
    private static func offset(_ property: ICSProperty, file: String) throws(CalendarError) -> Int {
        let text = property.value.trimmingASCIISpaces()
        let digits = text.dropFirst()
        guard let sign = text.first.flatMap({ $0 == "+" ? 1 : $0 == "-" ? -1 : nil }),
              digits.count == 4 || digits.count == 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let hours = Int(digits.prefix(2)), let minutes = Int(digits.dropFirst(2).prefix(2)),
              let seconds = digits.count == 6 ? Int(digits.suffix(2)) : 0 else {
            throw .malformed(file: file, line: property.line, reason: "\(property.name) \"\(text)\" is not a UTC offset")
        }
        return sign * (hours * 3600 + minutes * 60 + seconds)
    }
}
