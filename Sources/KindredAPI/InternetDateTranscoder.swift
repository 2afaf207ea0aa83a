import Foundation
import OpenAPIRuntime

/// The OpenAPI layer's date format, `2026-01-01T00:00:00Z` (RFC 3339 in UTC, whole seconds, as
/// `ISO8601DateTranscoder` writes it), written by arithmetic instead of a date formatter.
///
/// Every account in an answer carries a date, and `ISO8601DateFormatter` costs a few
/// microseconds per date under a lock (in a Closer device, which decodes dates in every answer,
/// about a tenth of its CPU time). The server and `KindredClient` both use it. Reading accepts
/// that form directly and hands any other to `ISO8601DateTranscoder`.
public struct InternetDateTranscoder: DateTranscoder {
    /// Made once: `ISO8601DateTranscoder.iso8601` creates a date formatter each time it is read.
    private static let fallback = ISO8601DateTranscoder.iso8601
    private var fallback: ISO8601DateTranscoder { Self.fallback }

    /// The transcoder; other forms are read and written by `ISO8601DateTranscoder.iso8601`.
    public init() {}

    /// The date in UTC: rounded to the millisecond, then down to the second (as the formatter does).
    public func encode(_ date: Date) throws -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard abs(milliseconds) < 1e15 else { return try fallback.encode(date) }
        let (whole, part) = Int64(milliseconds).quotientAndRemainder(dividingBy: 1000)
        let seconds = part < 0 ? whole - 1 : whole
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (day, extra) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        let (year, month, dayOfMonth) = Self.civil(daysSince1970: day)
        guard (0...9999).contains(year) else { return try fallback.encode(date) }
        // Written straight into the string's storage: appending each part as a string of its own
        // was most of the cost of the date in every `GET /v1/me` answer.
        return String(unsafeUninitializedCapacity: 20) { text in
            func put(_ value: Int64, _ digits: Int, at offset: Int) {
                var value = value
                for index in stride(from: offset + digits - 1, through: offset, by: -1) {
                    text[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
                    value /= 10
                }
            }
            put(year, 4, at: 0)
            text[4] = UInt8(ascii: "-")
            put(month, 2, at: 5)
            text[7] = UInt8(ascii: "-")
            put(dayOfMonth, 2, at: 8)
            text[10] = UInt8(ascii: "T")
            put(extra / 3600, 2, at: 11)
            text[13] = UInt8(ascii: ":")
            put(extra / 60 % 60, 2, at: 14)
            text[16] = UInt8(ascii: ":")
            put(extra % 60, 2, at: 17)
            text[19] = UInt8(ascii: "Z")
            return 20
        }
    }

    /// Reads `yyyy-MM-ddTHH:mm:ssZ`, or any form `ISO8601DateTranscoder` reads.
    public func decode(_ text: String) throws -> Date {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes[19] == UInt8(ascii: "Z"),
            let year = Self.number(bytes[0..<4]), let month = Self.number(bytes[5..<7]),
            let day = Self.number(bytes[8..<10]), let hour = Self.number(bytes[11..<13]),
            let minute = Self.number(bytes[14..<16]), let second = Self.number(bytes[17..<19]),
            (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return try fallback.decode(text) }
        let days = Self.days(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian, after Howard Hinnant's algorithms)

    /// Year, month and day of a count of days since 1970-01-01.
    static func civil(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days since 1970-01-01 of a date.
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int64? {
        var value: Int64 = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int64(digit - UInt8(ascii: "0"))
        }
        return value
    }
}
