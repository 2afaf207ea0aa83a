import Foundation

/// A date on the proleptic Gregorian calendar with no time and no zone: the player's local calendar
/// day. Stored as the number of days since 1970-01-01; encoded as `yyyy-MM-dd`.
public struct LocalDay: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Days since 1970-01-01 (negative before it).
    public let ordinal: Int

    /// The day `ordinal` days after 1970-01-01.
    public init(ordinal: Int) { self.ordinal = ordinal }

    /// The day with this year, month (1–12) and day of month, or nil when there is no such day.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day) else { return nil }
        let candidate = LocalDay(ordinal: Self.ordinal(year: year, month: month, day: day))
        guard candidate.month == month, candidate.day == day else { return nil }
        self = candidate
    }

    /// The calendar day at `date` in `timeZone`.
    public init(_ date: Date, in timeZone: TimeZone) {
        self = LocalTime(date, in: timeZone).day
    }

    /// Parses `yyyy-MM-dd`.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Decodes `yyyy-MM-dd`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let day = LocalDay(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a yyyy-MM-dd date: \(text)")
        }
        self = day
    }

    /// Encodes `yyyy-MM-dd`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// The year.
    public var year: Int { civil.year }
    /// The month, 1–12.
    public var month: Int { civil.month }
    /// The day of the month, 1–31.
    public var day: Int { civil.day }
    /// The ISO weekday: 1 is Monday, 7 is Sunday.
    public var isoWeekday: Int { ((ordinal + 3) % 7 + 7) % 7 + 1 }
    /// The Monday-based week this day falls in, counted from the week of 1970-01-01.
    public var weekOrdinal: Int { floorDivide(ordinal + 3, 7) }
    /// The date as a number `yyyymmdd` (how games that number puzzles by date are keyed).
    public var yyyymmdd: Int { let c = civil; return c.year * 10_000 + c.month * 100 + c.day }

    /// The day `days` later (earlier when negative).
    public func adding(days: Int) -> LocalDay { LocalDay(ordinal: ordinal + days) }
    /// Days from `other` to this day.
    public func days(since other: LocalDay) -> Int { ordinal - other.ordinal }

    /// `yyyy-MM-dd`.
    public var description: String {
        let c = civil
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))"
    }

    /// Orders by date.
    public static func < (lhs: LocalDay, rhs: LocalDay) -> Bool { lhs.ordinal < rhs.ordinal }

    // Howard Hinnant's civil-calendar algorithms (http://howardhinnant.github.io/date_algorithms.html).
    static func ordinal(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private var civil: (year: Int, month: Int, day: Int) {
        let z = ordinal + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}

/// A moment as the player's clock showed it: the local day, the minute of that day, and the zone's
/// offset from UTC at that moment.
public struct LocalTime: Hashable, Sendable {
    /// The local calendar day.
    public let day: LocalDay
    /// Minutes since local midnight, 0–1439.
    public let minuteOfDay: Int
    /// Seconds east of UTC at that moment.
    public let utcOffsetSeconds: Int

    /// The local time at `date` in `timeZone`.
    public init(_ date: Date, in timeZone: TimeZone) {
        self.init(date, utcOffsetSeconds: timeZone.secondsFromGMT(for: date))
    }

    /// The local time at `date` in a zone `utcOffsetSeconds` east of UTC.
    public init(_ date: Date, utcOffsetSeconds: Int) {
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + utcOffsetSeconds
        let dayOrdinal = floorDivide(local, 86_400)
        self.day = LocalDay(ordinal: dayOrdinal)
        self.minuteOfDay = (local - dayOrdinal * 86_400) / 60
        self.utcOffsetSeconds = utcOffsetSeconds
    }
}

/// `a / b` rounded towards minus infinity (`b` > 0).
func floorDivide(_ a: Int, _ b: Int) -> Int {
    let q = a / b
    return (a % b != 0 && a < 0) ? q - 1 : q
}
