/// One occurrence as instants (seconds since 1970, UTC).
struct OccurrenceInstant: Sendable, Equatable {
    var start: Int64
    var end: Int64
    /// The override's id for an overridden occurrence.
    var instanceID: EventID?
}

/// The occurrences of a series in a window (RFC 5545 §3.8.5): `DTSTART`, every `RRULE`'s
/// occurrences and the `RDATE`s, less the `EXDATE`s and the occurrences an override replaces
/// (its `RECURRENCE-ID`), plus the overrides at their own times.
///
/// - Everything recurs on the wall clock of `DTSTART`'s zone; floating and all-day series on the
///   store's floating zone. A floating `EXDATE`, `RDATE` or `RECURRENCE-ID` of a zoned series is
///   read in the series' zone; a date `EXDATE` on a timed series removes that day's occurrences.
/// - `COUNT` includes `DTSTART`, which is always the first occurrence (RFC 5545 §3.3.10); when it
///   does not match the rule, one rule occurrence fewer is taken (Python's `dateutil` would take
///   `COUNT` rule occurrences after it: such a rule is "undefined" by the RFC).
/// - A date `UNTIL` on a timed series includes that whole day on the series' wall clock.
/// - `RANGE=THISANDFUTURE` on an override is read as a single-occurrence override.
/// - A cancelled master (`STATUS:CANCELLED`) has no occurrences; a cancelled override removes
///   its occurrence.
/// - An occurrence is in the window when it overlaps it (`start < window.end && end >
///   window.start`), or, lasting no time, when it starts in it.
enum SeriesExpansion {
    /// The occurrences overlapping `window`, by start.
    /// - Throws: `CalendarError.unsupportedRule`/`.malformed` for an `RRULE` that cannot be
    ///   expanded, `.tooManyOccurrences` past `limits`.
    static func occurrences(
        of series: ICSSeries, in window: Range<Int64>, floating: any ICSZone, limits: RecurrenceLimits, file: String
    ) throws(CalendarError) -> [OccurrenceInstant] {
        var result: [OccurrenceInstant] = []
        if let master = series.master {
            guard !master.isCancelled else { return [] }
            result = try masterOccurrences(master, overrides: series.overrides.map(\.event), window: window,
                                           floating: floating, limits: limits, file: file)
        }
        for (id, override) in series.overrides where !override.isCancelled {
            let zone = override.start.concreteZone(floating: floating)
            let start = zone.instant(for: override.start.wall)
            let end = override.end.map { max(start, $0.instant(floating: floating)) }
                ?? override.length.end(wall: override.start.wall, start: start, zone: zone)
            if overlaps(start, end, window) { result.append(OccurrenceInstant(start: start, end: end, instanceID: id)) }
        }
        return result.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
    }

    static func overlaps(_ start: Int64, _ end: Int64, _ window: Range<Int64>) -> Bool {
        start == end ? window.contains(start) : start < window.upperBound && end > window.lowerBound
    }

    private static func masterOccurrences(
        _ master: ICSEvent, overrides: [ICSEvent], window: Range<Int64>, floating: any ICSZone,
        limits: RecurrenceLimits, file: String
    ) throws(CalendarError) -> [OccurrenceInstant] {
        let zone = master.start.concreteZone(floating: floating)
        let timed = !master.start.isDate
        func instant(_ time: ICSTime) -> Int64 {
            if case .floating = time.zone { return zone.instant(for: time.wall) }
            return time.instant(floating: floating)
        }
        var excluded = Set<Int64>()
        var excludedDays = Set<CivilDate>()
        for time in master.exceptionDates + overrides.compactMap(\.recurrenceID) {
            if time.isDate, timed { excludedDays.insert(time.wall.date) } else { excluded.insert(instant(time)) }
        }
        // Starts on the series' wall clock: DTSTART, then each rule's occurrences.
        let lookBack = master.length.maximumSeconds + 2 * 86_400
        let windowEnd = zone.wall(at: window.upperBound + 2 * 86_400)
        let skipTo = zone.wall(at: window.lowerBound - lookBack).date
        var walls = [master.start.wall]
        for rule in try master.rules.get() {
            let expander = RecurrenceExpander(rule: rule, start: master.start.wall, isDate: master.start.isDate)
            var count = rule.count
            if let total = count, !expander.matchesStart(limits: limits) { count = total - 1 }
            do {
                walls += try expander.occurrences(
                    until: until(rule.until, zone: zone, timed: timed), count: count, windowEnd: windowEnd,
                    skipTo: skipTo, limits: limits)
            } catch {
                throw .tooManyOccurrences(file: file, line: master.component.property("RRULE")?.line ?? master.component.line,
                                          limit: error.limit)
            }
        }
        var seen = Set<Int64>()
        var result: [OccurrenceInstant] = []
        func add(_ start: Int64, _ end: Int64) {
            guard seen.insert(start).inserted, !excluded.contains(start),
                  excludedDays.isEmpty || !excludedDays.contains(zone.wall(at: start).date),
                  overlaps(start, end, window) else { return }
            result.append(OccurrenceInstant(start: start, end: end))
        }
        for wall in walls {
            let start = zone.instant(for: wall)
            add(start, master.length.end(wall: wall, start: start, zone: zone))
        }
        for date in master.recurrenceDates {
            switch date {
            case .start(let time):
                let start = instant(time)
                add(start, master.length.end(wall: zone.wall(at: start), start: start, zone: zone))
            case .period(let time, let end):
                let start = instant(time)
                add(start, max(start, instant(end)))
            case .periodWithDuration(let time, let duration):
                let start = instant(time)
                add(start, OccurrenceLength.nominal(days: duration.days, seconds: duration.seconds)
                    .end(wall: zone.wall(at: start), start: start, zone: zone))
            }
        }
        if result.count > limits.maxOccurrences {
            throw .tooManyOccurrences(file: file, line: master.component.line, limit: limits.maxOccurrences)
        }
        return result
    }

    /// `UNTIL` on the series' wall clock, inclusive.
    private static func until(_ until: ICSRawTime?, zone: any ICSZone, timed: Bool) -> LocalDateTime? {
        guard let until else { return nil }
        switch until.form {
        case .date: return timed ? LocalDateTime(date: until.wall.date, secondOfDay: 86_399) : until.wall
        case .utc: return zone.wall(at: until.wall.wallSeconds)
        case .floating, .zoned: return until.wall
        }
    }
}
