import Foundation

/// How the store writes instants: ISO 8601 in UTC with milliseconds (`2026-03-02T07:15:00.250Z`),
/// so rows read as dates, sort as text, and round-trip exactly at millisecond precision.
public enum StoredDate {
    /// `date` truncated to whole milliseconds (what the store keeps).
    public static func truncated(_ date: Date) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds(date)) / 1000)
    }

    /// Milliseconds since 1970, rounded towards minus infinity (from the nearest microsecond, so a
    /// binary fraction just under a whole millisecond is not pushed to the one before).
    static func milliseconds(_ date: Date) -> Int {
        floorDivide(Int((date.timeIntervalSince1970 * 1_000_000).rounded()), 1000)
    }

    /// The ISO 8601 text of `date` (UTC, milliseconds).
    public static func text(_ date: Date) -> String {
        let ms = milliseconds(date)
        let day = floorDivide(ms, 86_400_000)
        let rest = ms - day * 86_400_000
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let time = "\(pad(rest / 3_600_000, 2)):\(pad(rest / 60_000 % 60, 2)):\(pad(rest / 1000 % 60, 2)).\(pad(rest % 1000, 3))"
        return "\(LocalDay(ordinal: day))T\(time)Z"
    }

    /// Parses text written by `text(_:)`; nil for anything else.
    public static func date(_ text: String) -> Date? {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2, let day = LocalDay(String(parts[0])) else { return nil }
        let time = Array(parts[1].utf8)
        guard time.count == 13, time[2] == UInt8(ascii: ":"), time[5] == UInt8(ascii: ":"), time[8] == UInt8(ascii: "."),
            time[12] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in time[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let hour = number(0..<2), let minute = number(3..<5), let second = number(6..<8), let ms = number(9..<12),
            hour < 24, minute < 60, second < 60
        else { return nil }
        let total = day.ordinal * 86_400_000 + ((hour * 60 + minute) * 60 + second) * 1000 + ms
        return Date(timeIntervalSince1970: Double(total) / 1000)
    }
}
