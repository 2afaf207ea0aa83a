import Foundation

/// A daily quiet window in a time zone: from `start` (inclusive) to `end` (exclusive), in
/// minutes after local midnight; a window with `end < start` crosses midnight.
public struct QuietHours: Sendable, Equatable {
    /// Minutes after local midnight the window opens (0…1439).
    public var start: Int
    /// Minutes after local midnight the window closes (0…1439), never equal to `start`.
    public var end: Int
    /// The zone the times are read in.
    public var timeZone: TimeZone

    /// Creates a window; nil when `start == end` or either is out of range.
    public init?(start: Int, end: Int, timeZone: TimeZone) {
        guard (0..<1440).contains(start), (0..<1440).contains(end), start != end else { return nil }
        self.start = start
        self.end = end
        self.timeZone = timeZone
    }

    /// Parses `HH:MM` into minutes after midnight.
    static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
            let hours = Int(parts[0]), let minutes = Int(parts[1]), (0..<24).contains(hours), (0..<60).contains(minutes)
        else { return nil }
        return hours * 60 + minutes
    }

    /// `HH:MM` of minutes after midnight.
    static func text(_ minutes: Int) -> String {
        String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }

    /// When a notification waiting at `instant` may be sent: nil when `instant` is outside the
    /// window, else the window's end.
    ///
    /// Local wall-clock times are resolved with the zone's rules on the day concerned, so a
    /// window ending at a time skipped by a DST change ends at the first instant after the gap,
    /// and one ending at a repeated time ends at its first occurrence.
    public func deferral(at instant: Date) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: instant)
        let now = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        let inside = start < end ? (now >= start && now < end) : (now >= start || now < end)
        guard inside else { return nil }
        // The window ends today if `end` is still ahead on the local clock, else tomorrow.
        let day = calendar.startOfDay(for: instant)
        let endDay = now < end ? day : (calendar.date(byAdding: .day, value: 1, to: day) ?? day)
        let endParts = calendar.dateComponents([.year, .month, .day], from: endDay)
        var components = DateComponents(
            year: endParts.year, month: endParts.month, day: endParts.day, hour: end / 60, minute: end % 60
        )
        components.timeZone = timeZone
        // `nextDate` finds the first instant at or after the day's start matching the local time,
        // moving past a gap (spring forward) and taking the first of a repeated hour (fall back).
        let searchFrom = calendar.startOfDay(for: endDay).addingTimeInterval(-1)
        let matched = calendar.nextDate(
            after: searchFrom, matching: DateComponents(hour: end / 60, minute: end % 60),
            matchingPolicy: .nextTime, repeatedTimePolicy: .first, direction: .forward
        )
        let resolved = matched ?? calendar.date(from: components) ?? instant
        return max(resolved, instant)
    }
}
