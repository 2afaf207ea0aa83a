/// An ISO 8601 week (`2020-W53`): weeks start on Monday, and a week belongs to the year its Thursday
/// falls in, so 2021-01-03 (a Sunday) is in 2020-W53 and 2024-12-30 is in 2025-W01.
public struct ISOWeek: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The ISO week-numbering year (not always the calendar year of every day in the week).
    public let year: Int
    /// The week number, 1–52 or 1–53.
    public let week: Int

    /// The week `day` falls in.
    public init(containing day: LocalDay) {
        let thursday = day.adding(days: 4 - day.isoWeekday)
        let year = thursday.year
        let firstOfYear = LocalDay(ordinal: LocalDay.ordinal(year: year, month: 1, day: 1))
        self.year = year
        self.week = thursday.days(since: firstOfYear) / 7 + 1
    }

    /// The week `week` of ISO year `year`, or nil when that year has no such week.
    public init?(year: Int, week: Int) {
        guard (1...9999).contains(year), week >= 1, week <= Self.weeks(inYear: year) else { return nil }
        self.year = year
        self.week = week
    }

    /// Parses `YYYY-Www` (`2020-W53`); nil for anything else or a week the year does not have.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 8, bytes[4] == UInt8(ascii: "-"), bytes[5] == UInt8(ascii: "W"),
            bytes.enumerated().allSatisfy({ [4, 5].contains($0.offset) || (48...57).contains($0.element) }),
            let year = Int(text.prefix(4)), let week = Int(text.suffix(2))
        else { return nil }
        self.init(year: year, week: week)
    }

    /// The number of ISO weeks in `year`: 53 when its 28 December is in week 53, else 52.
    public static func weeks(inYear year: Int) -> Int {
        let december28 = LocalDay(ordinal: LocalDay.ordinal(year: year, month: 12, day: 28))
        let thursday = december28.adding(days: 4 - december28.isoWeekday)
        let firstOfYear = LocalDay(ordinal: LocalDay.ordinal(year: year, month: 1, day: 1))
        return thursday.days(since: firstOfYear) / 7 + 1
    }

    /// The week's Monday.
    public var monday: LocalDay {
        let january4 = LocalDay(ordinal: LocalDay.ordinal(year: year, month: 1, day: 4))
        return january4.adding(days: 1 - january4.isoWeekday + (week - 1) * 7)
    }

    /// The week's seven days, Monday first.
    public var days: [LocalDay] { (0..<7).map { monday.adding(days: $0) } }

    /// `YYYY-Www`.
    public var description: String {
        let yearText = String(year)
        let weekText = String(week)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + "-W"
            + (weekText.count < 2 ? "0" : "") + weekText
    }

    /// Orders by year, then week.
    public static func < (lhs: ISOWeek, rhs: ISOWeek) -> Bool { (lhs.year, lhs.week) < (rhs.year, rhs.week) }

    /// Decodes `YYYY-Www`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let week = ISOWeek(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO week YYYY-Www: \(text)")
        }
        self = week
    }

    /// Encodes `YYYY-Www`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
