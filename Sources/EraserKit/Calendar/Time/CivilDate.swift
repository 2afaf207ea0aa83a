/// A day of the proleptic Gregorian calendar, with the arithmetic recurrence expansion needs
/// (day numbers, weekdays, month lengths). Day numbers count from 1970-01-01 (day 0), with
/// Howard Hinnant's `days_from_civil` algorithm, so no `Calendar` or time zone is involved.
struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    let year: Int
    let month: Int
    let day: Int

    /// A valid date, or `nil` (month 13, 30 February, …).
    init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `dayNumber` days after 1970-01-01.
    init(dayNumber: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01 (negative before).
    var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The day of the week.
    var weekday: Weekday {
        Weekday(rawValue: ((dayNumber + 3) % 7 + 7) % 7)!  // 1970-01-01 was a Thursday.
    }

    /// 1 for 1 January.
    var dayOfYear: Int { dayNumber - CivilDate(year: year, month: 1, day: 1)!.dayNumber + 1 }

    /// The date `days` later (earlier when negative).
    func adding(days: Int) -> CivilDate { CivilDate(dayNumber: dayNumber + days) }

    /// Whether `year` has 29 February.
    static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    /// 28 to 31.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// 365 or 366.
    static func daysIn(year: Int) -> Int { isLeap(year) ? 366 : 365 }

    static func < (lhs: CivilDate, rhs: CivilDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

    /// `YYYYMMDD`, as iCalendar writes a DATE.
    var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return pad(year, 4) + pad(month, 2) + pad(day, 2)
    }
}

/// A day of the week, numbered from Monday as ISO 8601 does.
enum Weekday: Int, Sendable, CaseIterable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday

    /// From the two letters iCalendar uses (`MO` … `SU`), any case.
    init?(icsCode: String) {
        switch icsCode.uppercased() {
        case "MO": self = .monday
        case "TU": self = .tuesday
        case "WE": self = .wednesday
        case "TH": self = .thursday
        case "FR": self = .friday
        case "SA": self = .saturday
        case "SU": self = .sunday
        default: return nil
        }
    }
}

/// A wall-clock time: a date and the seconds since its midnight, in no particular zone. Its
/// `wallSeconds` count as if the wall clock were UTC, so wall-clock arithmetic is plain integer
/// arithmetic and a zone turns it into an instant (`ICSZone.instant(forWall:)`).
struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    let date: CivilDate
    /// 0 ..< 86 400.
    let secondOfDay: Int

    init(date: CivilDate, secondOfDay: Int = 0) {
        self.date = date
        self.secondOfDay = secondOfDay
    }

    init(date: CivilDate, hour: Int, minute: Int, second: Int) {
        self.init(date: date, secondOfDay: hour * 3600 + minute * 60 + second)
    }

    /// The wall-clock time `wallSeconds` seconds after 1970-01-01 00:00.
    init(wallSeconds: Int64) {
        let days = Int((wallSeconds >= 0 ? wallSeconds : wallSeconds - 86_399) / 86_400)
        date = CivilDate(dayNumber: days)
        secondOfDay = Int(wallSeconds - Int64(days) * 86_400)
    }

    var wallSeconds: Int64 { Int64(date.dayNumber) * 86_400 + Int64(secondOfDay) }
    var hour: Int { secondOfDay / 3600 }
    var minute: Int { secondOfDay / 60 % 60 }
    var second: Int { secondOfDay % 60 }

    /// The same wall-clock time `days` days later.
    func adding(days: Int) -> LocalDateTime { LocalDateTime(date: date.adding(days: days), secondOfDay: secondOfDay) }

    static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool { lhs.wallSeconds < rhs.wallSeconds }

    /// `YYYYMMDDTHHMMSS`, as iCalendar writes a DATE-TIME.
    var description: String {
        let time = [hour, minute, second].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined()
        return "\(date)T\(time)"
    }
}
