/// A five-field cron expression (minute hour day-of-month month day-of-week) with Vixie cron's
/// meaning: `*`, lists, ranges, steps (`*/15`, `1-30/2`), month and day names, 7 as Sunday,
/// and the macros `@yearly`/`@annually`, `@monthly`, `@weekly`, `@daily`/`@midnight`, `@hourly`.
///
/// When both day of month and day of week are restricted (neither starts with `*`), a day
/// matches if EITHER matches (`0 0 1 * mon`: the 1st and every Monday); otherwise both must.
/// Times are wall-clock times in the job's time zone; see `nextRun(after:in:)` for DST.
public struct CronSchedule: Sendable, Equatable, CustomStringConvertible {
    /// The expression as written (trimmed).
    public let expression: String
    /// Matching minutes, bit n for minute n.
    let minutes: UInt64
    /// Matching hours, bit n for hour n.
    let hours: UInt32
    /// Matching days of the month, bit n for day n (1–31).
    let daysOfMonth: UInt32
    /// Matching months, bit n for month n (1–12).
    let months: UInt16
    /// Matching days of the week, bit n for weekday n (0 = Sunday … 6 = Saturday).
    let daysOfWeek: UInt8
    /// Whether the day-of-month field was restricted (did not start with `*`).
    let restrictsDayOfMonth: Bool
    /// Whether the day-of-week field was restricted (did not start with `*`).
    let restrictsDayOfWeek: Bool

    /// The expression as written.
    public var description: String { expression }

    /// Whether the calendar day matches the month and day fields.
    /// - Parameters:
    ///   - month: 1–12.
    ///   - day: 1–31.
    ///   - weekday: 0 (Sunday) – 6 (Saturday).
    func matchesDay(month: Int, day: Int, weekday: Int) -> Bool {
        guard months & (1 << month) != 0 else { return false }
        let domMatches = daysOfMonth & (1 << day) != 0
        let dowMatches = daysOfWeek & (1 << weekday) != 0
        if restrictsDayOfMonth && restrictsDayOfWeek { return domMatches || dowMatches }
        return domMatches && dowMatches
    }

    /// The matching hours in increasing order.
    var hourList: [Int] { (0...23).filter { hours & (1 << $0) != 0 } }

    /// The matching minutes in increasing order.
    var minuteList: [Int] { (0...59).filter { minutes & (1 << $0) != 0 } }
}
