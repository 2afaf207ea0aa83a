/// An `RRULE` (RFC 5545 §3.3.10), the parts this reader expands.
///
/// Supported: `FREQ` DAILY, WEEKLY, MONTHLY or YEARLY; `INTERVAL`, `COUNT`, `UNTIL`, `BYDAY`
/// (with ordinals such as `2MO` or `-1FR` for MONTHLY and YEARLY), `BYMONTHDAY` (negative
/// counts from the month's end), `BYMONTH`, `BYYEARDAY`, `BYSETPOS`, `BYHOUR`, `BYMINUTE`,
/// `BYSECOND` and `WKST`. Refused as unsupported: `FREQ` HOURLY, MINUTELY or SECONDLY,
/// `BYWEEKNO`, and any other IANA part (`RSCALE`, `SKIP`); `X-` parts are ignored.
struct RecurrenceRule: Sendable, Equatable {
    enum Frequency: String, Sendable {
        case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"
    }

    /// A `BYDAY` entry: a weekday, with an ordinal for "the second Monday" (`2MO`).
    struct WeekdayEntry: Sendable, Equatable {
        var ordinal: Int?
        var weekday: Weekday
    }

    var frequency: Frequency
    var interval = 1
    var count: Int?
    var until: ICSRawTime?
    var byDay: [WeekdayEntry] = []
    var byMonthDay: [Int] = []
    var byMonth: [Int] = []
    var byYearDay: [Int] = []
    var bySetPos: [Int] = []
    var byHour: [Int] = []
    var byMinute: [Int] = []
    var bySecond: [Int] = []
    var weekStart: Weekday = .monday

    /// Why a rule cannot be used.
    enum Problem: Error, Equatable {
        /// Not a valid rule.
        case malformed(String)
        /// Valid, but not one this reader expands.
        case unsupported(String)
    }

    /// Reads an `RRULE` value (`FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20240301T000000Z`).
    /// - Throws: `Problem.malformed` or `Problem.unsupported`, with the part at fault.
    static func parse(_ text: String) throws(Problem) -> RecurrenceRule {
        var parts: [String: String] = [:]
        for part in text.trimmingASCIISpaces().split(separator: ";", omittingEmptySubsequences: true) {
            guard let equals = part.firstIndex(of: "=") else { throw .malformed("\"\(part)\" has no \"=\"") }
            let name = part[..<equals].uppercased().trimmingASCIISpaces()
            let value = String(part[part.index(after: equals)...]).trimmingASCIISpaces()
            if name.hasPrefix("X-") { continue }
            guard parts[name] == nil else { throw .malformed("\(name) is given twice") }
            parts[name] = value
        }
        guard let frequencyText = parts.removeValue(forKey: "FREQ") else { throw .malformed("FREQ is missing") }
        guard let frequency = Frequency(rawValue: frequencyText.uppercased()) else {
            if ["HOURLY", "MINUTELY", "SECONDLY"].contains(frequencyText.uppercased()) {
                throw .unsupported("FREQ=\(frequencyText.uppercased())")
            }
            throw .malformed("FREQ=\(frequencyText) is not a frequency")
        }
        var rule = RecurrenceRule(frequency: frequency)
        for (name, value) in parts.sorted(by: { $0.key < $1.key }) {
            switch name {
            case "INTERVAL": rule.interval = try number(name, value, in: 1...Int(Int32.max))
            case "COUNT": rule.count = try number(name, value, in: 1...Int(Int32.max))
            case "UNTIL":
                guard let until = ICSRawTime.parse(value) else { throw .malformed("UNTIL=\(value) is not a date or date-time") }
                rule.until = until
            case "BYDAY": rule.byDay = try weekdays(value, frequency: frequency)
            case "BYMONTHDAY": rule.byMonthDay = try numbers(name, value, in: -31...31, zero: false)
            case "BYMONTH": rule.byMonth = try numbers(name, value, in: 1...12, zero: false)
            case "BYYEARDAY": rule.byYearDay = try numbers(name, value, in: -366...366, zero: false)
            case "BYSETPOS": rule.bySetPos = try numbers(name, value, in: -366...366, zero: false)
            case "BYHOUR": rule.byHour = try numbers(name, value, in: 0...23, zero: true)
            case "BYMINUTE": rule.byMinute = try numbers(name, value, in: 0...59, zero: true)
            case "BYSECOND": rule.bySecond = try numbers(name, value, in: 0...60, zero: true).map { min($0, 59) }
            case "WKST":
                guard let weekday = Weekday(icsCode: value) else { throw .malformed("WKST=\(value) is not a weekday") }
                rule.weekStart = weekday
            case "BYWEEKNO": throw .unsupported("BYWEEKNO")
            default: throw .unsupported(name)
            }
        }
        return rule
    }

    private static func number(_ name: String, _ value: String, in range: ClosedRange<Int>) throws(Problem) -> Int {
        guard let number = Int(value), range.contains(number) else { throw .malformed("\(name)=\(value) is out of range") }
        return number
    }

    private static func numbers(_ name: String, _ value: String, in range: ClosedRange<Int>, zero: Bool) throws(Problem) -> [Int] {
        var result: [Int] = []
        for item in value.split(separator: ",") {
            let text = item.hasPrefix("+") ? String(item.dropFirst()) : String(item)
            guard let number = Int(text), range.contains(number), zero || number != 0 else {
                throw .malformed("\(name)=\(value): \"\(item)\" is out of range")
            }
            result.append(number)
        }
        guard !result.isEmpty else { throw .malformed("\(name) is empty") }
        return result
    }

    private static func weekdays(_ value: String, frequency: Frequency) throws(Problem) -> [WeekdayEntry] {
        var result: [WeekdayEntry] = []
        for item in value.split(separator: ",") {
            let text = String(item).trimmingASCIISpaces()
            guard text.count >= 2, let weekday = Weekday(icsCode: String(text.suffix(2))) else {
                throw .malformed("BYDAY: \"\(text)\" is not a weekday")
            }
            let prefix = String(text.dropLast(2))
            var ordinal: Int?
            if !prefix.isEmpty {
                let digits = prefix.hasPrefix("+") ? String(prefix.dropFirst()) : prefix
                guard let number = Int(digits), number != 0, (-53...53).contains(number) else {
                    throw .malformed("BYDAY: \"\(text)\" has a bad ordinal")
                }
                guard frequency == .monthly || frequency == .yearly else {
                    throw .malformed("BYDAY=\(text): an ordinal weekday is only for FREQ=MONTHLY or YEARLY")
                }
                ordinal = number
            }
            result.append(WeekdayEntry(ordinal: ordinal, weekday: weekday))
        }
        guard !result.isEmpty else { throw .malformed("BYDAY is empty") }
        return result
    }
}

extension RecurrenceRule {
    /// Reads an `RRULE` property.
    /// - Throws: `CalendarError.malformed` or `.unsupportedRule` naming the property's line.
    static func parse(_ property: ICSProperty, file: String) throws(CalendarError) -> RecurrenceRule {
        do {
            return try parse(property.value)
        } catch {
            switch error {
            case .malformed(let reason): throw .malformed(file: file, line: property.line, reason: "RRULE: \(reason)")
            case .unsupported(let part): throw .unsupportedRule(file: file, line: property.line, reason: part)
            }
        }
    }
}
