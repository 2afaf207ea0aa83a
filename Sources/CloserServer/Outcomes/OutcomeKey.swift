/// A check-in of the couple's first 90 days (the seed's `outcomes/{dayKey}`).
enum OutcomeKey: String, CaseIterable, Sendable, Comparable {
    /// The day the couple was created.
    case day0 = "day_0"
    /// 30 days later.
    case day30 = "day_30"
    /// 60 days later.
    case day60 = "day_60"
    /// 90 days later.
    case day90 = "day_90"

    /// Days after the couple's creation date (in its own zone).
    var days: Int {
        switch self {
        case .day0: 0
        case .day30: 30
        case .day60: 60
        case .day90: 90
        }
    }

    /// The check-in after this one, if any.
    var next: OutcomeKey? {
        switch self {
        case .day0: .day30
        case .day30: .day60
        case .day60: .day90
        case .day90: nil
        }
    }

    static func < (lhs: OutcomeKey, rhs: OutcomeKey) -> Bool { lhs.days < rhs.days }
}
