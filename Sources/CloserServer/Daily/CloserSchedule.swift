import KindredServerCore
import Foundation

/// A couple's daily assignment time in its own zone, with the date math done by the IANA
/// database (Foundation's `TimeZone`), never with fixed offsets: the seed's DST bug is gone.
///
/// A *period* starts at an assignment instant (e.g. 23:00 local) and ends at the next one; its
/// date key is the local date of its start. On a DST change day the period is 23 or 25 hours long.
struct CloserSchedule: Sendable, Hashable {
    /// The zone.
    let timeZone: TimeZone
    /// Minutes after local midnight (23:00 = 1380).
    let minuteOfDay: Int

    /// One assignment instant and its date key.
    struct Instant: Sendable, Equatable {
        /// The moment.
        let date: Date
        /// The local date of the moment (`YYYY-MM-DD`).
        let key: String
    }

    /// The period that contains `now`: the latest assignment instant at or before it and the next
    /// one after it.
    func period(containing now: Date) -> (start: Instant, end: Instant) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let today = calendar.dateComponents([.year, .month, .day], from: now)
        let candidate = instant(on: today, calendar)
        if candidate.date <= now {
            return (candidate, instant(on: shift(today, by: 1, calendar), calendar))
        }
        return (instant(on: shift(today, by: -1, calendar), calendar), candidate)
    }

    /// The first assignment instant strictly after `date`.
    func next(after date: Date) -> Instant {
        period(containing: date).end
    }

    private func instant(on day: DateComponents, _ calendar: Calendar) -> Instant {
        var components = day
        components.hour = minuteOfDay / 60
        components.minute = minuteOfDay % 60
        components.second = 0
        // A wall-clock time skipped by a DST change resolves to the moment after the gap.
        let date = calendar.date(from: components) ?? Date(timeIntervalSince1970: 0)
        return Instant(date: date, key: Self.key(day))
    }

    private func shift(_ day: DateComponents, by days: Int, _ calendar: Calendar) -> DateComponents {
        var noon = day
        noon.hour = 12
        guard let base = calendar.date(from: noon), let moved = calendar.date(byAdding: .day, value: days, to: base) else { return day }
        return calendar.dateComponents([.year, .month, .day], from: moved)
    }

    /// `YYYY-MM-DD` of a day's components.
    static func key(_ day: DateComponents) -> String {
        let y = day.year ?? 0, m = day.month ?? 0, d = day.day ?? 0
        return "\(y < 1000 ? String(repeating: "0", count: 4 - String(y).count) : "")\(y)-\(m < 10 ? "0" : "")\(m)-\(d < 10 ? "0" : "")\(d)"
    }

    /// The UTC date (`YYYY-MM-DD`) of `date`.
    static func utcKey(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return key(calendar.dateComponents([.year, .month, .day], from: date))
    }

    /// Whether `key` is a real calendar date of the form `YYYY-MM-DD` (ASCII digits only: `Int`
    /// alone would also take a sign, as in `+026-01-01`).
    static func isValidKey(_ key: String) -> Bool {
        let parts = key.split(separator: "-", omittingEmptySubsequences: false)
        guard key.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]), (1...12).contains(m), d >= 1
        else { return false }
        let days = [31, (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return d <= days[m - 1]
    }
}
