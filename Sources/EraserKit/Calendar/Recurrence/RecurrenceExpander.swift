/// Expands one `RRULE` on the wall clock of its event's zone (RFC 5545 §3.3.10), so an event at
/// 09:00 stays at 09:00 across daylight-saving changes; the caller turns wall times into instants.
///
/// Each period of the rule (a day, a week starting on `WKST`, a month or a year, every
/// `INTERVAL`th) gives the days of that period that pass every `BY` filter (`BYMONTH`,
/// `BYYEARDAY`, `BYMONTHDAY`, `BYDAY`), times `BYHOUR` × `BYMINUTE` × `BYSECOND`, then `BYSETPOS`
/// picks among them; candidates before `DTSTART` are dropped. Invalid dates (31 April) are
/// never candidates, so they are skipped as the RFC says. Without any day filter the rule takes
/// `DTSTART`'s day of the month (and month, yearly) or weekday (weekly).
struct RecurrenceExpander: Sendable {
    let rule: RecurrenceRule
    let start: LocalDateTime
    let isDate: Bool
    /// The first day of the week holding `start` (weekly periods begin there).
    private let firstWeekStart: CivilDate
    private let times: [Int]
    private let filter: DayFilter

    /// Stops the expansion: the limit that was passed.
    struct LimitExceeded: Error { let limit: Int }

    init(rule: RecurrenceRule, start: LocalDateTime, isDate: Bool) {
        var rule = rule
        if rule.byYearDay.isEmpty, rule.byMonthDay.isEmpty, rule.byDay.isEmpty {
            switch rule.frequency {
            case .yearly:
                if rule.byMonth.isEmpty { rule.byMonth = [start.date.month] }
                rule.byMonthDay = [start.date.day]
            case .monthly: rule.byMonthDay = [start.date.day]
            case .weekly: rule.byDay = [.init(ordinal: nil, weekday: start.date.weekday)]
            case .daily: break
            }
        }
        self.rule = rule
        self.start = start
        self.isDate = isDate
        let back = (start.date.weekday.rawValue - rule.weekStart.rawValue + 7) % 7
        firstWeekStart = start.date.adding(days: -back)
        if isDate {
            times = [0]
        } else {
            let hours = rule.byHour.isEmpty ? [start.hour] : rule.byHour
            let minutes = rule.byMinute.isEmpty ? [start.minute] : rule.byMinute
            let seconds = rule.bySecond.isEmpty ? [start.second] : rule.bySecond
            times = Set(hours.flatMap { h in minutes.flatMap { m in seconds.map { h * 3600 + m * 60 + $0 } } }).sorted()
        }
        filter = DayFilter(rule)
    }

    /// The rule's occurrences from `start`, in order.
    /// - Parameters:
    ///   - until: the last wall time allowed (`UNTIL` on this wall clock), inclusive.
    ///   - count: how many occurrences the rule has at most (`COUNT`, adjusted by the caller).
    ///   - windowEnd: nothing after this wall time is needed.
    ///   - skipTo: without `count`, periods wholly before this day may be skipped.
    /// - Throws: `LimitExceeded` past `limits`.
    func occurrences(until: LocalDateTime?, count: Int?, windowEnd: LocalDateTime, skipTo: CivilDate?,
                     limits: RecurrenceLimits) throws(LimitExceeded) -> [LocalDateTime] {
        var result: [LocalDateTime] = []
        if let count, count <= 0 { return result }
        var period = (count == nil ? skipTo.map(periodIndex(containing:)) : nil) ?? 0
        var walked = 0
        let lastDay = min(windowEnd.date, until?.date ?? windowEnd.date)
        while true {
            walked += 1
            if walked > limits.maxPeriods { throw LimitExceeded(limit: limits.maxPeriods) }
            guard let first = periodStart(period), first <= lastDay, first.year <= 9999 else { return result }
            for candidate in candidates(in: period, from: first) where candidate >= start {
                if let until, candidate > until { return result }
                if candidate > windowEnd { return result }
                result.append(candidate)
                if result.count > limits.maxOccurrences { throw LimitExceeded(limit: limits.maxOccurrences) }
                if let count, result.count >= count { return result }
            }
            period += 1
        }
    }

    /// Whether `start` itself is one of the rule's occurrences (RFC 5545 counts `DTSTART` as
    /// the first occurrence either way; the caller adjusts `COUNT` when it is not).
    func matchesStart(limits: RecurrenceLimits) -> Bool {
        let first = try? occurrences(until: nil, count: 1, windowEnd: start, skipTo: nil, limits: limits)
        return first?.first == start
    }

    // MARK: - Periods

    private func periodStart(_ index: Int) -> CivilDate? {
        let step = index * rule.interval
        switch rule.frequency {
        case .daily: return start.date.adding(days: step)
        case .weekly: return firstWeekStart.adding(days: 7 * step)
        case .monthly:
            let months = start.date.year * 12 + start.date.month - 1 + step
            return CivilDate(year: months / 12, month: months % 12 + 1, day: 1)
        case .yearly: return CivilDate(year: start.date.year + step, month: 1, day: 1)
        }
    }

    private func periodIndex(containing day: CivilDate) -> Int {
        func floorDivide(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
        let index: Int
        switch rule.frequency {
        case .daily: index = floorDivide(day.dayNumber - start.date.dayNumber, rule.interval)
        case .weekly: index = floorDivide(day.dayNumber - firstWeekStart.dayNumber, 7 * rule.interval)
        case .monthly:
            index = floorDivide((day.year * 12 + day.month) - (start.date.year * 12 + start.date.month), rule.interval)
        case .yearly: index = floorDivide(day.year - start.date.year, rule.interval)
        }
        return max(0, index)
    }

    private func days(in period: Int, from first: CivilDate) -> [CivilDate] {
        switch rule.frequency {
        case .daily: return [first]
        case .weekly: return (0..<7).map { first.adding(days: $0) }
        case .monthly:
            return (1...CivilDate.daysIn(month: first.month, year: first.year)).compactMap {
                CivilDate(year: first.year, month: first.month, day: $0)
            }
        case .yearly:
            let months = rule.byMonth.isEmpty ? Array(1...12) : Set(rule.byMonth).sorted()
            return months.flatMap { month in
                (1...CivilDate.daysIn(month: month, year: first.year)).compactMap {
                    CivilDate(year: first.year, month: month, day: $0)
                }
            }
        }
    }

    private func candidates(in period: Int, from first: CivilDate) -> [LocalDateTime] {
        let matching = days(in: period, from: first).filter(passesFilters)
        var all: [LocalDateTime] = []
        all.reserveCapacity(matching.count * times.count)
        for day in matching {
            for time in times { all.append(LocalDateTime(date: day, secondOfDay: time)) }
        }
        guard !rule.bySetPos.isEmpty else { return all }
        var picked = Set<LocalDateTime>()
        for position in rule.bySetPos {
            let index = position > 0 ? position - 1 : all.count + position
            if all.indices.contains(index) { picked.insert(all[index]) }
        }
        return picked.sorted()
    }

    // MARK: - Filters

    private func passesFilters(_ day: CivilDate) -> Bool { filter.passes(day) }
}

/// The rule's day filters as lookup tables (`BYMONTH`, `BYYEARDAY`, `BYMONTHDAY`, `BYDAY`).
private struct DayFilter {
    /// Indexed by month (1…12); empty for no `BYMONTH`.
    let months: [Bool]
    /// Indexed by day of the year: `n` at `n`, `-n` at `366 + n`; empty for no `BYYEARDAY`.
    let yearDays: [Bool]
    /// Indexed by day of the month: `n` at `n`, `-n` at `31 + n`; empty for no `BYMONTHDAY`.
    let monthDays: [Bool]
    let hasWeekdays: Bool
    /// Indexed by weekday: a `BYDAY` entry without ordinal.
    let everyWeekday: [Bool]
    /// `BYDAY` entries with an ordinal.
    let ordinals: [RecurrenceRule.WeekdayEntry]
    /// Whether ordinals count within the month (else within the year).
    let ordinalsInMonth: Bool

    init(_ rule: RecurrenceRule) {
        func table(_ values: [Int], size: Int) -> [Bool] {
            guard !values.isEmpty else { return [] }
            var table = [Bool](repeating: false, count: 2 * size + 1)
            for value in values { table[value > 0 ? value : size - value] = true }
            return table
        }
        months = table(rule.byMonth, size: 12)
        yearDays = table(rule.byYearDay, size: 366)
        monthDays = table(rule.byMonthDay, size: 31)
        hasWeekdays = !rule.byDay.isEmpty
        var every = [Bool](repeating: false, count: 7)
        for entry in rule.byDay where entry.ordinal == nil { every[entry.weekday.rawValue] = true }
        everyWeekday = every
        ordinals = rule.byDay.filter { $0.ordinal != nil }
        ordinalsInMonth = rule.frequency == .monthly || !rule.byMonth.isEmpty
    }

    /// Whether a day counted `positive` from the start or `negative` from the end is listed.
    private static func lookup(_ table: [Bool], _ positive: Int, _ negative: Int, size: Int) -> Bool {
        table[positive] || table[size - negative]
    }

    func passes(_ day: CivilDate) -> Bool {
        if !months.isEmpty, !months[day.month] { return false }
        if !yearDays.isEmpty {
            let ordinal = day.dayOfYear
            if !Self.lookup(yearDays, ordinal, ordinal - CivilDate.daysIn(year: day.year) - 1, size: 366) { return false }
        }
        if !monthDays.isEmpty {
            if !Self.lookup(monthDays, day.day, day.day - CivilDate.daysIn(month: day.month, year: day.year) - 1, size: 31) {
                return false
            }
        }
        guard hasWeekdays else { return true }
        let weekday = day.weekday
        if everyWeekday[weekday.rawValue] { return true }
        for entry in ordinals where entry.weekday == weekday {
            if matches(entry.ordinal!, day) { return true }
        }
        return false
    }

    /// Whether `day` is the `ordinal`th of its weekday in its month (MONTHLY, or YEARLY with
    /// BYMONTH) or its year (YEARLY without BYMONTH); negative ordinals count from the end.
    private func matches(_ ordinal: Int, _ day: CivilDate) -> Bool {
        let index = ordinalsInMonth ? day.day - 1 : day.dayOfYear - 1
        let length = ordinalsInMonth ? CivilDate.daysIn(month: day.month, year: day.year) : CivilDate.daysIn(year: day.year)
        return ordinal == index / 7 + 1 || ordinal == -((length - 1 - index) / 7 + 1)
    }
}
