import KindredServerCore

/// The refusals of Closer's check-ins, each with its stable code (openapi.yaml, tag `outcomes`).
extension KindredError {
    /// 400 `invalid_outcome_key`: not one of `day_0`, `day_30`, `day_60`, `day_90`.
    static let invalidOutcomeKey = refused(
        status: 400, code: "invalid_outcome_key", message: "the check-in key must be day_0, day_30, day_60 or day_90"
    )
    /// 400 `invalid_outcome` naming the problem.
    static func invalidOutcome(_ why: String) -> KindredError { refused(status: 400, code: "invalid_outcome", message: why) }
    /// 413 `outcome_too_large`.
    static func outcomeTooLarge(_ limit: Int) -> KindredError {
        refused(status: 413, code: "outcome_too_large", message: "answers must be at most \(limit) characters")
    }
    /// 409 `outcome_not_due`: the check-in's day has not come yet in the couple's zone.
    static func outcomeNotDue(_ date: String) -> KindredError {
        refused(status: 409, code: "outcome_not_due", message: "this check-in opens on \(date) in the couple's time zone")
    }
    /// 409 `outcome_exists`: the caller already answered this check-in.
    static let outcomeExists = refused(
        status: 409, code: "outcome_exists", message: "you already answered this check-in; answers cannot change"
    )
}

extension NotificationType {
    /// A 30/60/90-day check-in is open and the recipient has not answered it.
    public static let closerOutcomeReminder = NotificationType(rawValue: "outcome_reminder")
}
