import Foundation

/// A calendar day the user picks ("from 3 March 2023"), read in the scan's time zone.
public struct ScanDay: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The year (Gregorian).
    public var year: Int
    /// The month, 1–12.
    public var month: Int
    /// The day of the month, 1–31.
    public var day: Int

    /// A day; whether it exists is checked by `ScanConfiguration.validate()`.
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Earlier days first.
    public static func < (lhs: ScanDay, rhs: ScanDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// `2023-03-01`.
    public var description: String {
        let pad: (Int, Int) -> String = { value, width in
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// The instant this day starts in `timeZone` (its first moment, also on a DST day that
    /// starts at 01:00), or `nil` when the day does not exist (30 February).
    func start(in timeZone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(year: year, month: month, day: day)
        guard (1...12).contains(month), (1...31).contains(day),
              let date = calendar.date(from: components) else { return nil }
        let back = calendar.dateComponents([.year, .month, .day], from: date)
        guard back.year == year, back.month == month, back.day == day else { return nil }
        return calendar.startOfDay(for: date)
    }

    /// The day after this one, or `nil` when this day does not exist.
    func next(in timeZone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        guard let start = start(in: timeZone),
              let noonNext = calendar.date(byAdding: .hour, value: 36, to: start) else { return nil }
        return calendar.startOfDay(for: noonNext)
    }
}

/// A range of whole days, both ends included: `from` 2023-03-01 `through` 2023-03-31 covers every
/// instant from the start of 1 March up to, but not including, the start of 1 April in the scan's
/// time zone. As instants it is half-open, `[start, end)`: a photo taken at 00:00:00 on 1 April
/// is outside, one at 23:59:59.999 on 31 March is inside.
public struct ScanDateRange: Sendable, Hashable, Codable {
    /// The first day.
    public var from: ScanDay
    /// The last day (included).
    public var through: ScanDay

    /// A range of days, both included.
    public init(from: ScanDay, through: ScanDay) {
        self.from = from
        self.through = through
    }

    /// The instants covered in `timeZone`: `start` included, `end` excluded.
    /// - Throws: `ScanError.invalidDateRange` when a day does not exist or `from` is after `through`.
    public func instants(in timeZone: TimeZone, index: Int = 0) throws(EraserKitError) -> ScanInstantRange {
        guard let start = from.start(in: timeZone) else {
            throw .scan(.invalidDateRange(index: index, reason: "\(from) is not a day"))
        }
        guard let end = through.next(in: timeZone) else {
            throw .scan(.invalidDateRange(index: index, reason: "\(through) is not a day"))
        }
        guard from <= through else {
            throw .scan(.invalidDateRange(index: index, reason: "it starts on \(from), after its end \(through)"))
        }
        return ScanInstantRange(start: start, end: end)
    }
}

/// A half-open range of instants, `[start, end)`.
public struct ScanInstantRange: Sendable, Hashable, Codable {
    /// The first instant inside.
    public var start: Date
    /// The first instant outside.
    public var end: Date

    /// Whether `date` is inside: `start <= date < end`.
    public func contains(_ date: Date) -> Bool { start <= date && date < end }

    /// Whether an event from `eventStart` to `eventEnd` overlaps the range: it starts before the
    /// range ends and ends after it starts (an instantaneous event counts when `contains` its start).
    public func overlaps(eventStart: Date, eventEnd: Date) -> Bool {
        if eventEnd <= eventStart { return contains(eventStart) }
        return eventStart < end && eventEnd > start
    }

    /// The same range as a `DateInterval` (for `CalendarStore.occurrences(in:)`).
    var interval: DateInterval { DateInterval(start: start, end: end) }
}
