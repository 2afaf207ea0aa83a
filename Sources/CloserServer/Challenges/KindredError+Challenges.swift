import KindredServerCore

/// The refusals of connection challenges, each with its stable code (listed in openapi.yaml,
/// tag `challenges`).
extension KindredError {
    /// 404 `challenge_not_found`: no such challenge in the catalog.
    static let challengeNotFound = refused(status: 404, code: "challenge_not_found", message: "no such challenge")
    /// 404 `challenge_instance_not_found`: the couple has no such instance.
    static let challengeInstanceNotFound = refused(
        status: 404, code: "challenge_instance_not_found", message: "no such challenge in this couple"
    )
    /// 409 `challenge_already_active`: the couple is already doing this challenge.
    static let challengeAlreadyActive = refused(
        status: 409, code: "challenge_already_active", message: "you are already doing this challenge together"
    )
    /// 409 `challenge_not_active`: the instance is completed or abandoned.
    static let challengeNotActive = refused(status: 409, code: "challenge_not_active", message: "this challenge is over")
    /// 409 `challenge_day_not_open`: a day after today.
    static func challengeDayNotOpen(today: Int) -> KindredError {
        refused(status: 409, code: "challenge_day_not_open", message: "this day has not started yet; today is day \(today)")
    }
    /// 422 `invalid_challenge_day`: a day the challenge does not have.
    static func invalidChallengeDay(dayCount: Int) -> KindredError {
        refused(status: 422, code: "invalid_challenge_day", message: "this challenge has days 1–\(dayCount)")
    }
}

extension NotificationType {
    /// The partner joined, did a day of, completed or left a challenge, or today's step waits.
    public static let closerChallenge = NotificationType(rawValue: "challenge")
}
