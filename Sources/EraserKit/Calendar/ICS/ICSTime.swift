/// How a DATE or DATE-TIME value was written (RFC 5545 §3.3.4, §3.3.5).
enum ICSTimeForm: Sendable, Equatable {
    /// `20240105` (`VALUE=DATE`): a whole day.
    case date
    /// `20240105T090000Z`.
    case utc
    /// `20240105T090000`: the same wall-clock time wherever one is.
    case floating
    /// `TZID=Europe/Istanbul:20240105T090000`.
    case zoned(tzid: String)
}

/// A DATE or DATE-TIME as written, its `TZID` not yet resolved.
struct ICSRawTime: Sendable, Equatable {
    /// The wall-clock time (midnight for a date).
    var wall: LocalDateTime
    var form: ICSTimeForm

    var isDate: Bool { form == .date }

    /// Reads one value.
    /// - Parameters:
    ///   - value: `YYYYMMDD` or `YYYYMMDDTHHMMSS` with an optional `Z`.
    ///   - valueType: the `VALUE` parameter; a bare 8-digit value is a date even without it.
    ///   - tzid: the `TZID` parameter (ignored for a date or a `Z` time, as RFC 5545 says).
    /// - Returns: `nil` when the value is not a valid date or date-time.
    static func parse(_ value: String, valueType: String? = nil, tzid: String? = nil) -> ICSRawTime? {
        let text = value.trimmingASCIISpaces()
        let digits = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= digits.count else { return nil }
            var result = 0
            for byte in digits[range] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                result = result * 10 + Int(byte - 0x30)
            }
            return result
        }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
              let date = CivilDate(year: year, month: month, day: day) else { return nil }
        if digits.count == 8 {
            return ICSRawTime(wall: LocalDateTime(date: date), form: .date)
        }
        guard valueType?.uppercased() != "DATE", digits.count == 15 || digits.count == 16,
              digits[8] == 0x54 || digits[8] == 0x74,  // T
              let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15),
              hour < 24, minute < 60, second <= 60 else { return nil }
        let wall = LocalDateTime(date: date, hour: hour, minute: minute, second: min(second, 59))
        if digits.count == 16 {
            guard digits[15] == 0x5A || digits[15] == 0x7A else { return nil }  // Z
            return ICSRawTime(wall: wall, form: .utc)
        }
        if let tzid, !tzid.isEmpty { return ICSRawTime(wall: wall, form: .zoned(tzid: tzid)) }
        return ICSRawTime(wall: wall, form: .floating)
    }
}

/// Where a time's wall clock is read.
enum EventZone: Sendable {
    case utc
    /// Read in the store's zone for floating times (`ICSCalendarStore.floatingTimeZone`).
    case floating
    case named(any ICSZone)
}

/// A DATE or DATE-TIME with its zone resolved.
struct ICSTime: Sendable {
    /// The wall-clock time (midnight for a date).
    var wall: LocalDateTime
    var isDate: Bool
    var zone: EventZone

    /// The zone its wall clock is read in: dates and floating times use `floating`.
    func concreteZone(floating: any ICSZone) -> any ICSZone {
        switch zone {
        case .utc: UTCZone()
        case .floating: floating
        case .named(let zone): zone
        }
    }

    /// The instant it names (a date: its midnight in the floating zone).
    func instant(floating: any ICSZone) -> Int64 { concreteZone(floating: floating).instant(for: wall) }

    /// The identifier of its named zone, if it has one.
    var zoneIdentifier: String? {
        if case .named(let zone) = zone { return zone.identifier }
        return nil
    }
}
