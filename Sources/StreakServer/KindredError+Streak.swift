import KindredServerCore

/// The refusals of StreakSync, each with its stable code (listed in openapi.yaml).
///
/// As in the other domains: a malformed path or query value is 400, a well-formed request whose
/// content the rules refuse is 422 naming the field (and the index in a batch), a state that
/// forbids the change is 409, and a thing the caller may not see is 404.
extension KindredError {
    /// 403 `wrong_app`: StreakSync routes serve StreakSync accounts only.
    static let wrongApp = refused(status: 403, code: "wrong_app", message: "StreakSync routes need X-Kindred-App: streaksync")
    /// 422 `profile_incomplete`: befriending and publishing need a display name.
    static let profileIncomplete = refused(
        status: 422, code: "profile_incomplete", message: "set a display name (PUT /v1/streaksync/profile) first"
    )
    /// 422 `invalid_display_name`.
    static let invalidDisplayName = refused(
        status: 422, code: "invalid_display_name", message: "displayName must be 1 to 200 characters without control characters"
    )
    /// 422 `invalid_result` naming the field and index.
    static func invalidResult(_ why: String) -> KindredError { refused(status: 422, code: "invalid_result", message: why) }
    /// 422 `invalid_achievement` naming the field and index.
    static func invalidAchievement(_ why: String) -> KindredError { refused(status: 422, code: "invalid_achievement", message: why) }
    /// 409 `too_many_results`.
    static func tooManyResults(_ limit: Int) -> KindredError {
        refused(status: 409, code: "too_many_results", message: "an account holds at most \(limit) results")
    }
    /// 409 `too_many_achievements`.
    static func tooManyAchievements(_ limit: Int) -> KindredError {
        refused(status: 409, code: "too_many_achievements", message: "an account holds at most \(limit) achievement records")
    }
    /// 422 `invalid_friend_code`.
    static let invalidFriendCode = refused(
        status: 422, code: "invalid_friend_code", message: "a friend code is six of ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    )
    /// 404 `friend_code_not_found`.
    static let friendCodeNotFound = refused(status: 404, code: "friend_code_not_found", message: "no one has this friend code")
    /// 422 `own_friend_code`.
    static let ownFriendCode = refused(status: 422, code: "own_friend_code", message: "this is your own friend code")
    /// 409 `already_friends`.
    static let alreadyFriends = refused(status: 409, code: "already_friends", message: "you are friends already")
    /// 409 `friend_request_exists`: the caller asked this person already.
    static let friendRequestExists = refused(status: 409, code: "friend_request_exists", message: "your request to this person is pending")
    /// 409 `too_many_friend_requests`.
    static func tooManyFriendRequests(_ limit: Int) -> KindredError {
        refused(status: 409, code: "too_many_friend_requests", message: "at most \(limit) of your requests may be pending")
    }
    /// 409 `too_many_friends`: the caller or the other person has the most friends allowed.
    static func tooManyFriends(_ limit: Int) -> KindredError {
        refused(status: 409, code: "too_many_friends", message: "an account has at most \(limit) friends")
    }
    /// 404 `friendship_not_found`: no such friendship, or the caller is not party to it.
    static let friendshipNotFound = refused(status: 404, code: "friendship_not_found", message: "no such friendship")
    /// 403 `not_recipient`: only the person asked accepts.
    static let notRecipient = refused(status: 403, code: "not_recipient", message: "only the person asked can accept")
    /// 422 `invalid_score` naming the field.
    static func invalidScore(_ why: String) -> KindredError { refused(status: 422, code: "invalid_score", message: why) }
    /// 400 `invalid_date`: a path date that is not `YYYY-MM-DD`.
    static let invalidDate = refused(status: 400, code: "invalid_date", message: "the date must be a calendar date, YYYY-MM-DD")
    /// 400 `invalid_game`: a path game id that is not an id.
    static let invalidGame = refused(
        status: 400, code: "invalid_game", message: "a game id is 1 to 32 of a-z, 0-9 and '-', starting with a letter"
    )
    /// 404 `unknown_game`: a game that has no leaderboard.
    static func unknownGame(_ id: String) -> KindredError {
        refused(status: 404, code: "unknown_game", message: "\(id) is not a game on the leaderboards (GET /v1/streaksync/games)")
    }
}
