/// The refusals of the accounts domain, each with its stable code (listed in openapi.yaml).
extension KindredError {
    /// 401 `missing_token`: the route needs `Authorization: Bearer <access token>`.
    package static let missingToken = refused(
        status: 401, code: "missing_token", message: "this route needs an Authorization: Bearer access token"
    )
    /// 401 `invalid_token`: the access token is malformed, badly signed or for another app.
    package static func invalidToken(_ why: String = "the access token is not valid") -> KindredError {
        refused(status: 401, code: "invalid_token", message: why)
    }
    /// 401 `token_expired`: the access token is past its lifetime; refresh the session.
    package static let tokenExpired = refused(
        status: 401, code: "token_expired", message: "the access token has expired; refresh the session"
    )
    /// 401 `session_revoked`: the session was logged out, reused or its account deleted.
    package static let sessionRevoked = refused(
        status: 401, code: "session_revoked", message: "this session has ended; sign in again"
    )
    /// 403 `account_disabled`: an operator disabled the account.
    package static let accountDisabled = refused(
        status: 403, code: "account_disabled", message: "this account has been disabled"
    )
    /// 401 `invalid_credentials`: unknown e-mail or wrong password (deliberately the same).
    package static let invalidCredentials = refused(
        status: 401, code: "invalid_credentials", message: "the e-mail address or password is wrong"
    )
    /// 400 `invalid_email`.
    package static func invalidEmail(_ why: String) -> KindredError {
        refused(status: 400, code: "invalid_email", message: why)
    }
    /// 400 `weak_password`.
    package static func weakPassword(_ why: String) -> KindredError {
        refused(status: 400, code: "weak_password", message: why)
    }
    /// 409 `email_taken`: another account of this app has the address.
    package static let emailTaken = refused(
        status: 409, code: "email_taken", message: "an account with this e-mail address already exists; sign in instead"
    )
    /// 409 `credential_in_use`: the credential belongs to another account, which the client may sign in to.
    package static let credentialInUse = refused(
        status: 409, code: "credential_in_use",
        message: "this sign-in method belongs to another account; sign in to that account instead"
    )
    /// 409 `already_linked`: the account already has a credential of this kind.
    package static func alreadyLinked(_ provider: String) -> KindredError {
        refused(status: 409, code: "already_linked", message: "this account already has a \(provider) sign-in")
    }
    /// 403 `provider_disabled`: the app does not offer this sign-in method.
    package static func providerDisabled(_ provider: String, app: AppID) -> KindredError {
        refused(status: 403, code: "provider_disabled", message: "\(app.rawValue) does not offer \(provider) sign-in")
    }
    /// 401 `invalid_identity_token`: the Apple or Google token failed verification.
    package static func invalidIdentityToken(_ why: String) -> KindredError {
        refused(status: 401, code: "invalid_identity_token", message: why)
    }
    /// 400 `invalid_nonce`: an identity sign-in's nonce is not 8 to 256 bytes.
    package static let invalidNonce = refused(status: 400, code: "invalid_nonce", message: "nonce must be 8 to 256 bytes")
    /// 400 `nonce_required`: the app requires a nonce with Apple and Google sign-ins.
    package static let nonceRequired = refused(
        status: 400, code: "nonce_required",
        message: "this app requires a nonce: send the nonce whose SHA-256 hex the app gave the provider"
    )
    /// 401 `identity_token_reused`: an identity token is good for one sign-in only.
    package static let identityTokenReused = refused(
        status: 401, code: "identity_token_reused", message: "this identity token was already used; sign in with the provider again"
    )
    /// 503 `identity_provider_unavailable`: the provider's keys cannot be loaded right now.
    package static let identityProviderUnavailable = refused(
        status: 503, code: "identity_provider_unavailable",
        message: "the sign-in provider's keys cannot be loaded; try again later"
    )
    /// 401 `invalid_refresh_token`: unknown, expired or revoked refresh token.
    package static let invalidRefreshToken = refused(
        status: 401, code: "invalid_refresh_token", message: "the refresh token is not valid; sign in again"
    )
    /// 401 `refresh_token_reused`: an old refresh token came back; the session was revoked.
    package static let refreshTokenReused = refused(
        status: 401, code: "refresh_token_reused",
        message: "this refresh token was already used; the session has been revoked, sign in again"
    )
    /// 400 `invalid_profile`: a profile field is out of range.
    package static func invalidProfile(_ why: String) -> KindredError {
        refused(status: 400, code: "invalid_profile", message: why)
    }
    /// 403 `upgrade_required`: anonymous accounts cannot do this; add a sign-in method first.
    package static let upgradeRequired = refused(
        status: 403, code: "upgrade_required",
        message: "add an e-mail, Apple or Google sign-in to this account before doing this"
    )
}
