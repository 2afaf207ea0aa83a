import Foundation

/// Numbers, counts, distances and dates in this language.
extension SoulMateStrings {
    /// The Foundation locale of this language (dates).
    public var localeIdentifier: String {
        switch language {
        case .english: "en_US"
        case .turkish: "tr_TR"
        }
    }

    /// An integer with this language's thousands separator: `12,345` / `12.345`.
    public func integer(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { grouped.append(language == .turkish ? "." : ",") }
            grouped.append(digit)
        }
        return value < 0 ? "-" + grouped : grouped
    }

    /// A number with one decimal and this language's decimal separator (`3.4` / `3,4`), the
    /// decimal dropped when it is zero (`3`).
    public func oneDecimal(_ value: Double) -> String {
        guard value.isFinite, value.magnitude < 1e15 else { return "-" }
        guard value >= 0 else { return "-" + oneDecimal(-value) }
        let tenths = Int((value * 10).rounded())
        let whole = integer(tenths / 10)
        let fraction = tenths % 10
        return fraction == 0 ? whole : whole + (language == .turkish ? "," : ".") + String(fraction)
    }

    /// The badge text for pending pair requests: "1 pending request", "3 pending requests".
    public func pendingRequests(_ count: Int) -> String {
        self(count == 1 ? .pendingRequestsOne : .pendingRequestsOther, integer(count))
    }

    /// "N days together" (day 1 on the first day; `RelationshipStatus.dayCount`).
    public func daysTogether(_ days: Int) -> String {
        self(days == 1 ? .statusDaysOne : .statusDaysOther, integer(days))
    }

    /// A date in this language's long form: "February 14, 2024" / "14 Şubat 2024".
    /// - Parameters:
    ///   - date: the instant.
    ///   - timeZone: the time zone whose calendar day is shown.
    public func longDate(_ date: Date, timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: localeIdentifier)
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = timeZone
        formatter.dateStyle = .long
        formatter.timeStyle = .none
        return formatter.string(from: date)
    }

    /// "Together since February 14, 2024" / "14 Şubat 2024 tarihinden beri birlikte".
    public func togetherSince(_ date: Date, timeZone: TimeZone) -> String {
        self(.statusTogetherSince, longDate(date, timeZone: timeZone))
    }

    /// The distance between the partners, for the status line:
    ///
    /// | distance | shown |
    /// | --- | --- |
    /// | unknown, negative or not finite | "Distance unknown" |
    /// | under 100 m | "Right next to each other" |
    /// | under 950 m | metres, rounded to 100 m: "800 m apart" |
    /// | under 9.95 km | kilometres, one decimal: "3.4 km apart" ("3 km apart" for 3.0) |
    /// | under 999.5 km | whole kilometres: "350 km apart" |
    /// | 999.5 km and more | "Far apart: 2,345 km" |
    ///
    /// Coarse locations are rounded to 0.01° (about 1.1 km north–south), so a short distance
    /// between two of them is approximate.
    /// - Parameter meters: the distance, or `nil` when a location is missing.
    public func distance(meters: Double?) -> String {
        // No two places are farther apart than the Earth's circumference: more is not a distance.
        guard let meters, meters.isFinite, meters >= 0, meters < 40_075_017 else { return self[.distanceUnknown] }
        switch meters {
        case ..<100: return self[.distanceTogether]
        case ..<950: return self(.distanceMetres, integer(Int((meters / 100).rounded()) * 100))
        case ..<9_950: return self(.distanceKilometres, oneDecimal(meters / 1000))
        case ..<999_500: return self(.distanceKilometres, integer(Int((meters / 1000).rounded())))
        default: return self(.distanceFarApart, integer(Int((meters / 1000).rounded())))
        }
    }
}
