import Foundation

extension CronSchedule {
    /// How far ahead `nextRun` looks: eight years, enough for `0 0 29 2 *` after a skipped leap year.
    static let searchDays: Int64 = 366 * 8 + 2

    /// The first instant strictly after `instant` at which the schedule fires in `zone`.
    ///
    /// The schedule names wall-clock times of `zone`, resolved with its real offsets:
    /// - a wall time skipped by a spring-forward gap fires once, at the first instant after the
    ///   gap (02:30 on a day Chicago jumps from 02:00 to 03:00 fires at 03:00 CDT); several
    ///   skipped times (every 15 minutes) still fire only once there;
    /// - a wall time repeated by a fall-back fires once, at its first occurrence.
    /// - Parameters:
    ///   - instant: the time to search after.
    ///   - zone: the IANA time zone the schedule's wall times are in.
    /// - Returns: the next firing, or nil when none falls within eight years (it cannot, for a
    ///   schedule that parsed: parsing refuses dates that never exist).
    public func nextRun(after instant: Date, in zone: TimeZone) -> Date? {
        let afterSeconds = instant.timeIntervalSince1970
        let now = Int64(afterSeconds.rounded(.down))
        let wallNow = now + Int64(zone.secondsFromGMT(for: instant))
        let firstMinute = Self.floorDivide(wallNow, 60) * 60
        let startDay = Self.floorDivide(wallNow, 86_400)
        let hours = hourList.map(Int64.init)
        let minutes = minuteList.map(Int64.init)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? zone
        for day in startDay..<(startDay + Self.searchDays) {
            // The wall-clock date, read with a UTC calendar from seconds that count wall time.
            let date = calendar.dateComponents(
                [.month, .day, .weekday], from: Date(timeIntervalSince1970: TimeInterval(day * 86_400))
            )
            guard let month = date.month, let dayOfMonth = date.day, let weekday = date.weekday,
                  matchesDay(month: month, day: dayOfMonth, weekday: weekday - 1)
            else { continue }
            for hour in hours {
                for minute in minutes {
                    let wall = day * 86_400 + hour * 3_600 + minute * 60
                    // Earlier wall times resolve to instants at or before `instant`.
                    guard wall >= firstMinute else { continue }
                    let fires = zone.firstInstant(atWallTime: wall)
                    if TimeInterval(fires) > afterSeconds { return Date(timeIntervalSince1970: TimeInterval(fires)) }
                }
            }
        }
        return nil
    }

    /// `value / divisor` rounded towards negative infinity.
    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

extension TimeZone {
    /// The first instant (seconds since 1970) whose wall-clock time in this zone is `wall`
    /// (seconds since 1970 counted on the wall clock); for a wall time inside a spring-forward
    /// gap, the first instant after the gap (the transition itself).
    package func firstInstant(atWallTime wall: Int64) -> Int64 {
        func offset(_ seconds: Int64) -> Int64 {
            Int64(secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
        }
        // Offsets are within −12 h…+14 h, so every instant showing `wall` lies within ±14 h of it;
        // sampling both ends and the middle sees the offsets on either side of any transition.
        let offsets = Set([wall - 50_400, wall, wall + 50_400].map(offset))
        let solutions = offsets.map { wall - $0 }.filter { wall - offset($0) == $0 }
        if let first = solutions.min() { return first }
        guard let before = offsets.min(), let after = offsets.max(), before < after else { return wall - offset(wall) }
        // A gap: the offset rises from `before` to `after` at a transition T with
        // T + before <= wall < T + after. Search the second it happens.
        var low = wall - after  // still at `before` (else `wall` would have a solution here)
        var high = wall - before  // already past the transition
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if offset(middle) == before { low = middle } else { high = middle }
        }
        return high
    }
}
