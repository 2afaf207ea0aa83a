import KindredServerCore

/// The refusals of Closer, each with its stable code (listed in openapi.yaml).
extension KindredError {
    /// 403 `wrong_app`: Closer routes serve Closer accounts only.
    static let wrongApp = refused(status: 403, code: "wrong_app", message: "Closer routes need X-Kindred-App: closer")
    /// 404 `not_paired`: the caller is in no couple.
    static let notPaired = refused(status: 404, code: "not_paired", message: "you are not in a couple")
    /// 409 `already_paired`: the caller is already in a couple.
    static let alreadyPaired = refused(status: 409, code: "already_paired", message: "you are already in a couple; leave it first")
    /// 409 `inviter_paired`: the inviter joined another couple meanwhile.
    static let inviterPaired = refused(status: 409, code: "inviter_paired", message: "the person who invited you is already in a couple")
    /// 404 `invite_not_found`.
    static let inviteNotFound = refused(status: 404, code: "invite_not_found", message: "no such invite")
    /// 410 `invite_expired`.
    static let inviteExpired = refused(status: 410, code: "invite_expired", message: "this invite has expired; ask for a new one")
    /// 409 `invite_used`.
    static let inviteUsed = refused(status: 409, code: "invite_used", message: "this invite has already been accepted")
    /// 409 `own_invite`.
    static let ownInvite = refused(status: 409, code: "own_invite", message: "you cannot accept your own invite")
    /// 403 `invite_verifier_mismatch`: the share string's secret does not match.
    static let inviteVerifierMismatch = refused(
        status: 403, code: "invite_verifier_mismatch", message: "the invite secret does not match; check the whole invite text"
    )
    /// 400 `invalid_invite` naming the bad field.
    static func invalidInvite(_ why: String) -> KindredError { refused(status: 400, code: "invalid_invite", message: why) }
    /// 404 `couple_not_found`: no such couple, or the caller is not a member.
    static let coupleNotFound = refused(status: 404, code: "couple_not_found", message: "no such couple")
    /// 400 `invalid_couple_update` naming the bad field.
    static func invalidCoupleUpdate(_ why: String) -> KindredError { refused(status: 400, code: "invalid_couple_update", message: why) }
    /// 409 `encryption_version_conflict`.
    static func encryptionVersionConflict(_ why: String) -> KindredError {
        refused(status: 409, code: "encryption_version_conflict", message: why)
    }
    /// 400 `invalid_time_zone`.
    static let closerInvalidTimeZone = refused(status: 400, code: "invalid_time_zone", message: "timeZone must be an IANA time zone")
    /// 403 `premium_required`.
    static let premiumRequired = refused(status: 403, code: "premium_required", message: "this pack needs a premium couple")
    /// 404 `pack_not_found`.
    static let packNotFound = refused(status: 404, code: "pack_not_found", message: "no such question pack")
    /// 404 `question_not_found`.
    static let questionNotFound = refused(status: 404, code: "question_not_found", message: "no such question")
    /// 404 `no_questions`: the catalog has nothing the couple may get.
    static let noQuestions = refused(status: 404, code: "no_questions", message: "the catalog has no question this couple may get")
    /// 404 `no_question_assigned`.
    static let noQuestionAssigned = refused(
        status: 404, code: "no_question_assigned", message: "no question is assigned yet; ask for one with POST"
    )
    /// 404 `day_not_found`.
    static let dayNotFound = refused(status: 404, code: "day_not_found", message: "no question was assigned for this date")
    /// 410 `answers_closed`.
    static let answersClosed = refused(status: 410, code: "answers_closed", message: "answers for this date are closed")
    /// 400 `invalid_answer` naming the problem.
    static func invalidAnswer(_ why: String) -> KindredError { refused(status: 400, code: "invalid_answer", message: why) }
    /// 409 `answer_exists`.
    static let answerExists = refused(status: 409, code: "answer_exists", message: "you have already answered; answers are written once")
    /// 404 `answer_not_found`.
    static let answerNotFound = refused(status: 404, code: "answer_not_found", message: "no such answer")
    /// 409 `answer_already_migrated`.
    static let answerAlreadyMigrated = refused(status: 409, code: "answer_already_migrated", message: "this answer was already rewritten")
    /// 403 `not_owner`: only the author may write this.
    static let notOwner = refused(status: 403, code: "not_owner", message: "only its author may write this")
    /// 409 `reveal_irreversible`.
    static let revealIrreversible = refused(status: 409, code: "reveal_irreversible", message: "a released key or a reveal cannot be undone")
    /// 409 `answers_incomplete`: release keys wait for both answers.
    static let answersIncomplete = refused(status: 409, code: "answers_incomplete", message: "both partners must answer before keys are released")
    /// 400 `invalid_release_key` naming the problem.
    static func invalidReleaseKey(_ why: String) -> KindredError { refused(status: 400, code: "invalid_release_key", message: why) }
    /// 409 `release_key_exists`.
    static let releaseKeyExists = refused(
        status: 409, code: "release_key_exists", message: "a different release key already exists for this device"
    )
    /// 400 `invalid_device_key`.
    static func invalidDeviceKey(_ why: String) -> KindredError { refused(status: 400, code: "invalid_device_key", message: why) }
    /// 409 `too_many_devices`.
    static let tooManyDevices = refused(status: 409, code: "too_many_devices", message: "at most 10 devices may publish keys; remove one first")
    /// 404 `device_not_found`.
    static let deviceNotFound = refused(status: 404, code: "device_not_found", message: "no such device")
    /// 404 `user_not_found`.
    static let closerUserNotFound = refused(status: 404, code: "user_not_found", message: "no such user")
    /// 404 `thread_not_found`.
    static let threadNotFound = refused(status: 404, code: "thread_not_found", message: "no such thread")
    /// 400 `invalid_message` naming the problem.
    static func invalidMessage(_ why: String) -> KindredError { refused(status: 400, code: "invalid_message", message: why) }
    /// 409 `message_exists`.
    static let messageExists = refused(status: 409, code: "message_exists", message: "you have already posted in this thread")
    /// 404 `message_not_found`.
    static let messageNotFound = refused(status: 404, code: "message_not_found", message: "no such message")
}
