import Foundation

/// A time zone as the calendar uses it: a UTC offset for each instant. Instants and wall-clock
/// times are whole seconds (`Int64`) since 1970-01-01 00:00 (UTC for instants, on the zone's wall
/// clock for wall times), the precision of iCalendar.
protocol ICSZone: Sendable {
    /// The zone's name (an Olson identifier, a `TZID`, `UTC`).
    var identifier: String { get }
    /// Seconds east of UTC at `instant`.
    func utcOffset(at instant: Int64) -> Int
}

extension ICSZone {
    /// The instant a wall-clock time names in this zone, as RFC 5545 §3.3.5 reads one that a
    /// daylight-saving change makes ambiguous or skips: an ambiguous time (the hour repeated in
    /// autumn) is its first instant; a skipped time (the hour lost in spring) is read with the
    /// offset from before the change, so 02:30 on a night the clocks jump from 02:00 to 03:00 is
    /// 03:30 (Python's `zoneinfo` with `fold=0` gives the same instants).
    func instant(forWall wall: Int64) -> Int64 {
        let before = utcOffset(at: wall - 86_400)
        let after = utcOffset(at: wall + 86_400)
        var earliest: Int64?
        for offset in [before, after, utcOffset(at: wall)] {
            let candidate = wall - Int64(offset)
            if utcOffset(at: candidate) == offset, candidate < (earliest ?? .max) { earliest = candidate }
        }
        return earliest ?? wall - Int64(before)
    }

    /// The instant a wall-clock time names in this zone.
    func instant(for wall: LocalDateTime) -> Int64 { instant(forWall: wall.wallSeconds) }

    /// The wall-clock time of `instant` in this zone.
    func wall(at instant: Int64) -> LocalDateTime {
        LocalDateTime(wallSeconds: instant + Int64(utcOffset(at: instant)))
    }
}

/// A zone of the system's time-zone database (Foundation's `TimeZone`).
struct SystemZone: ICSZone {
    let timeZone: TimeZone

    var identifier: String { timeZone.identifier }

    func utcOffset(at instant: Int64) -> Int {
        timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
    }
}

/// UTC, for `Z` times.
struct UTCZone: ICSZone {
    var identifier: String { "UTC" }
    func utcOffset(at instant: Int64) -> Int { 0 }
}
