import KindredServerCore

/// The refusals of SoulMate, each with its stable code (listed in openapi.yaml).
extension KindredError {
    static let wrongApp = refused(status: 403, code: "wrong_app", message: "SoulMate routes need X-Kindred-App: soulmate")
    static func invalidInstallation(_ why: String) -> KindredError { refused(status: 400, code: "invalid_installation", message: why) }
    static func sessionLocked(device: String, lastSeen: String) -> KindredError {
        refused(
            status: 409, code: "session_locked",
            message: "this account is open on another device (\(device), last seen \(lastSeen)); log out there, or take over with your password"
        )
    }
    static let noSessionLock = refused(status: 404, code: "no_session_lock", message: "no device holds this account's session lock")
    static let profileIncomplete = refused(
        status: 422, code: "profile_incomplete", message: "add your first and last name before pairing"
    )
    static func invalidPairCode(_ why: String) -> KindredError { refused(status: 422, code: "invalid_pair_code", message: why) }
    static let pairCodeNotFound = refused(status: 404, code: "pair_code_not_found", message: "no one has this pair code")
    static let ownPairCode = refused(status: 422, code: "own_pair_code", message: "this is your own pair code")
    static let alreadyPaired = refused(status: 409, code: "already_paired", message: "you are already paired; unpair first")
    static let partnerAlreadyPaired = refused(status: 409, code: "partner_already_paired", message: "this person is already paired")
    static let pairRequestExists = refused(status: 409, code: "pair_request_exists", message: "a request between you two is already pending")
    static let pairRequestNotFound = refused(status: 404, code: "pair_request_not_found", message: "no such pair request")
    static let pairRequestClosed = refused(status: 409, code: "pair_request_closed", message: "this pair request is no longer pending")
    static let notPaired = refused(status: 404, code: "not_paired", message: "you are not paired")
    static let unpairRequestExists = refused(status: 409, code: "unpair_request_exists", message: "an unpair request is already pending")
    static let unpairRequestNotFound = refused(status: 404, code: "unpair_request_not_found", message: "no such unpair request")
    static let unpairRequestClosed = refused(status: 409, code: "unpair_request_closed", message: "this unpair request is no longer pending")
    static func unpairNotDue(_ when: String) -> KindredError {
        refused(status: 422, code: "unpair_not_due", message: "your partner has until \(when) to answer; you can leave alone after that")
    }
    static let notRecipient = refused(status: 403, code: "not_recipient", message: "only the other person can answer this request")
    static let notRequester = refused(status: 403, code: "not_requester", message: "only the person who asked can do this")
    static func invalidPublicKey(_ why: String) -> KindredError { refused(status: 422, code: "invalid_public_key", message: why) }
    static let noIdentityKey = refused(status: 404, code: "no_identity_key", message: "you have not published an identity key")
    static let partnerKeyMissing = refused(status: 404, code: "partner_key_missing", message: "your partner has not published an identity key yet")
    static func invalidEnvelope(_ why: String) -> KindredError { refused(status: 422, code: "invalid_envelope", message: why) }
    static let notPartner = refused(status: 403, code: "not_partner", message: "messages go only to your current partner")
    static func keyVersionMismatch(current: Int?) -> KindredError {
        refused(
            status: 409, code: "key_version_mismatch",
            message: current.map { "your published identity key is version \($0); publish the key you sealed with" }
                ?? "publish your identity key before sending"
        )
    }
    static let messageIDTaken = refused(status: 409, code: "message_id_taken", message: "this message id was used for a different envelope")
    static func invalidAck(_ why: String) -> KindredError { refused(status: 422, code: "invalid_ack", message: why) }
    static func invalidLocation(_ why: String) -> KindredError { refused(status: 422, code: "invalid_location", message: why) }
    static let noLocation = refused(status: 404, code: "no_location", message: "your partner has not shared a location")
}
