import Foundation

/// The date math of challenges, in a couple's zone through the IANA database (never fixed
/// offsets): today's date key, a day's number, and the local reminder instants (at
/// `closer.challengeReminderHour`, 19:00 by default).
enum ChallengeCalendar {
    /// The reminder's default local hour: 19 (`CloserSettings.challengeReminderHour`).
    static let defaultReminderHour = 19

    /// The zone named `identifier` (UTC when unknown).
    static func zone(_ identifier: String) -> TimeZone {
        TimeZone(identifier: identifier) ?? TimeZone(identifier: "UTC") ?? .current
    }

    /// The local date (`YYYY-MM-DD`) of `date` in `zone`.
    static func key(of date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return CloserSchedule.key(calendar.dateComponents([.year, .month, .day], from: date))
    }

    /// The day number of `key` in a challenge whose day 1 is `start` (0 or less before it), or
    /// nil when either is not a date key.
    static func dayNumber(start: String, key: String) -> Int? {
        guard let first = civilDay(start), let day = civilDay(key) else { return nil }
        return day - first + 1
    }

    /// The first reminder at `hour`:00 local strictly after `date` in `zone`.
    static func nextReminder(after date: Date, in zone: TimeZone, hour: Int) -> Date {
        CloserSchedule(timeZone: zone, minuteOfDay: hour * 60).next(after: date).date
    }

    /// Days since 1970-01-01 of a `YYYY-MM-DD` key (proleptic Gregorian), nil when malformed.
    static func civilDay(_ key: String) -> Int? {
        guard CloserSchedule.isValidKey(key) else { return nil }
        let parts = key.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        // Howard Hinnant's days_from_civil.
        let y = parts[1] <= 2 ? parts[0] - 1 : parts[0]
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (parts[1] + 9) % 12
        let doy = (153 * mp + 2) / 5 + parts[2] - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
