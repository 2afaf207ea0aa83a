/// Why a cron expression was refused; each message names the field and the offending text.
public enum CronParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not five space-separated fields (and not a known `@` macro); carries the count found.
    case wrongFieldCount(Int)
    /// A macro other than `@yearly`, `@annually`, `@monthly`, `@weekly`, `@daily`, `@midnight`, `@hourly`.
    case unknownMacro(String)
    /// A list element that is empty (`1,,2`) or not a number, name, range or step.
    case invalidValue(field: CronField, text: String)
    /// A number or name outside the field's range.
    case outOfRange(field: CronField, value: Int)
    /// A range whose start is after its end (`5-1`).
    case reversedRange(field: CronField, text: String)
    /// A step that is not a positive number (`*/0`, `*/x`).
    case invalidStep(field: CronField, text: String)
    /// A schedule no date ever matches (`0 0 30 2 *`: February 30th).
    case neverFires(String)

    /// A one-line description of the problem.
    public var description: String {
        switch self {
        case .wrongFieldCount(let count):
            "a cron expression has 5 fields (minute hour day-of-month month day-of-week), not \(count)"
        case .unknownMacro(let macro): "unknown cron macro \(macro)"
        case .invalidValue(let field, let text): "\(field): \"\(text)\" is not a number, name, range or step"
        case .outOfRange(let field, let value): "\(field): \(value) is outside \(field.bounds.lowerBound)–\(field.bounds.upperBound)"
        case .reversedRange(let field, let text): "\(field): the range \(text) ends before it starts"
        case .invalidStep(let field, let text): "\(field): the step in \"\(text)\" must be a positive number"
        case .neverFires(let expression): "the schedule \"\(expression)\" matches no date"
        }
    }
}

/// One of the five fields of a cron expression.
public enum CronField: String, Sendable, CaseIterable, CustomStringConvertible {
    case minute, hour, dayOfMonth = "day of month", month, dayOfWeek = "day of week"

    /// The field's name as used in messages.
    public var description: String { rawValue }

    /// The values the field accepts (day of week also accepts 7 for Sunday, stored as 0).
    var bounds: ClosedRange<Int> {
        switch self {
        case .minute: 0...59
        case .hour: 0...23
        case .dayOfMonth: 1...31
        case .month: 1...12
        case .dayOfWeek: 0...7
        }
    }

    /// The names the field accepts (case-insensitive), mapped to numbers.
    var names: [String: Int] {
        switch self {
        case .month:
            ["jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
             "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12]
        case .dayOfWeek: ["sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6]
        default: [:]
        }
    }
}
