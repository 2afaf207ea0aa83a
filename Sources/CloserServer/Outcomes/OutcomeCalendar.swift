import Foundation

/// The dates of a couple's check-ins, counted in calendar days from its creation date in the
/// couple's own zone (IANA rules through Foundation, so a DST change moves nothing): a check-in
/// opens at local midnight of its day and stays open; its reminder is due at 10:00 local that
/// day, and never sooner than an hour after the couple was created.
struct OutcomeCalendar: Sendable {
    /// The local hour of a check-in reminder.
    static let reminderHour = 10
    /// How long after its time a missed reminder is still sent (a job that was down catches up
    /// for a week, then skips the check-in rather than nudging about an old one).
    static let reminderGrace: TimeInterval = 7 * 86_400

    /// The couple's zone.
    let timeZone: TimeZone
    /// When the couple was created.
    let createdAt: Date

    /// The calendar of a couple; an unknown zone name counts as UTC.
    init(timeZone: String, createdAtMS: Int64) {
        self.timeZone = TimeZone(identifier: timeZone) ?? TimeZone(identifier: "UTC") ?? .current
        createdAt = Date(timeIntervalSince1970: Double(createdAtMS) / 1000)
    }

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// The local calendar day of `key`.
    func day(_ key: OutcomeKey) -> DateComponents {
        let calendar = calendar
        var noon = calendar.dateComponents([.year, .month, .day], from: createdAt)
        noon.hour = 12
        guard let base = calendar.date(from: noon), let moved = calendar.date(byAdding: .day, value: key.days, to: base) else {
            return calendar.dateComponents([.year, .month, .day], from: createdAt)
        }
        return calendar.dateComponents([.year, .month, .day], from: moved)
    }

    /// The local date of `key` (`YYYY-MM-DD`).
    func date(_ key: OutcomeKey) -> String { CloserSchedule.key(day(key)) }

    /// When `key` becomes answerable: local midnight of its day (a midnight skipped by a DST
    /// change resolves to the moment after the gap).
    func opensAt(_ key: OutcomeKey) -> Date { at(hour: 0, on: key) }

    /// When `key`'s reminder is due.
    func remindAt(_ key: OutcomeKey) -> Date {
        max(at(hour: Self.reminderHour, on: key), createdAt.addingTimeInterval(3600))
    }

    /// The first check-in whose reminder is still worth sending at `now`.
    func firstReminder(after now: Date) -> OutcomeKey? {
        OutcomeKey.allCases.first { remindAt($0).addingTimeInterval(Self.reminderGrace) > now }
    }

    private func at(hour: Int, on key: OutcomeKey) -> Date {
        var components = day(key)
        components.hour = hour
        components.minute = 0
        components.second = 0
        return calendar.date(from: components) ?? createdAt
    }
}
