import Foundation

/// The shapes of StreakSync's inputs: ids, game and category ids, dates, names.
enum StreakInput {
    /// A record id: 1–64 of `A-Z a-z 0-9 - _ . :` (the device's result ids are `wordle:1234:2026-03-01`).
    static func isRecordID(_ value: String) -> Bool {
        (1...64).contains(value.utf8.count) && value.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"):
                true
            default:
                false
            }
        }
    }

    /// A friendship id as the server makes them (and any id a client may echo): 1–64 of `A-Z a-z 0-9 - _`.
    static func isFriendshipID(_ value: String) -> Bool {
        (1...64).contains(value.utf8.count) && value.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"):
                true
            default:
                false
            }
        }
    }

    /// A game or category id: 1–32 of `a-z 0-9 -`, starting with a letter.
    static func isSlug(_ value: String) -> Bool {
        guard let first = value.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first), value.utf8.count <= 32 else {
            return false
        }
        return value.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-")
        }
    }

    /// A display name, trimmed: 1–200 characters, no control characters.
    static func displayName(_ raw: String) -> String? {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 200,
              !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        return trimmed
    }

    /// The earliest time a record may carry (2000-01-01T00:00:00Z), in milliseconds.
    static let earliestMS: Int64 = 946_684_800_000
    /// How far after the server's clock an `updatedAt` may be (a device clock a little fast).
    static let futureSlackMS: Int64 = 86_400_000
}

/// A local calendar date, `YYYY-MM-DD` (years 2000 to 2999). Its text orders as the dates do.
struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    let year: Int
    let month: Int
    let day: Int

    /// Parses `YYYY-MM-DD`; nil for anything else or a day the month does not have.
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = Self.number(bytes[0..<4]), let month = Self.number(bytes[5..<7]), let day = Self.number(bytes[8..<10]),
              (2000...2999).contains(year), (1...12).contains(month), (1...Self.days(inMonth: month, year: year)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date of `instant` in `zone`.
    init(_ instant: Date, in zone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        year = parts.year ?? 2000
        month = parts.month ?? 1
        day = parts.day ?? 1
    }

    /// `YYYY-MM-DD`.
    var description: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }

    static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The UTC time zone.
    static let utc = TimeZone(identifier: "UTC")!

    /// The dates that are today somewhere on Earth at `instant` (UTC−12 to UTC+14).
    static func todayAnywhere(_ instant: Date) -> ClosedRange<LocalDate> {
        LocalDate(instant.addingTimeInterval(-12 * 3600), in: utc)...LocalDate(instant.addingTimeInterval(14 * 3600), in: utc)
    }
}
