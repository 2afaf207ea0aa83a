import DeviceIntegrity

/// The refusals of device integrity, each with its stable code (listed in openapi.yaml, tag Integrity).
extension KindredError {
    /// 400 `invalid_challenge`: no challenge of this user and app has this value.
    package static let invalidChallenge = refused(
        status: 400, code: "invalid_challenge", message: "the challenge was not issued to this account and app; request a new one"
    )
    /// 409 `challenge_used`: the challenge was already consumed by a submission.
    package static let challengeUsed = refused(
        status: 409, code: "challenge_used", message: "the challenge was already used; request a new one"
    )
    /// 410 `challenge_expired`: the challenge is past its lifetime.
    package static let challengeExpired = refused(
        status: 410, code: "challenge_expired", message: "the challenge has expired; request a new one"
    )
    /// 404 `integrity_key_not_found`: the account has no App Attest key with this id for this app.
    package static let integrityKeyNotFound = refused(
        status: 404, code: "integrity_key_not_found", message: "no attested key with this id belongs to this account and app"
    )
    /// 409 `integrity_key_in_use`: the key id is already registered.
    package static let integrityKeyInUse = refused(
        status: 409, code: "integrity_key_in_use", message: "this key is already registered; send assertions with it"
    )
    /// 409 `assertion_replayed`: the assertion's counter is not above the stored one.
    package static func assertionReplayed(_ why: String) -> KindredError {
        refused(status: 409, code: "assertion_replayed", message: why)
    }
    /// 422 `integrity_check_failed`: the attestation, assertion or token did not verify (the
    /// failed verdict is recorded).
    package static func integrityCheckFailed(_ error: DeviceIntegrityError) -> KindredError {
        refused(status: 422, code: "integrity_check_failed", message: error.description)
    }
    /// 501 `integrity_not_configured`: the server has no App Attest or Play Integrity settings for the app.
    package static func integrityNotConfigured(_ what: String, app: AppID) -> KindredError {
        refused(status: 501, code: "integrity_not_configured", message: "\(what) is not configured for \(app.rawValue)")
    }
    /// 403 `integrity_required`: the route needs a passing, fresh device verdict (`Kindred-Device-Key`).
    package static let integrityRequired = refused(
        status: 403, code: "integrity_required",
        message: "this route needs a device with a passing integrity verdict; attest the device and send Kindred-Device-Key"
    )
}
