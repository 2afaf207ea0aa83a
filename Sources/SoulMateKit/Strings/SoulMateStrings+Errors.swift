import KindredClient

/// Error messages: the server's codes and SoulMateKit's errors, in this language.
extension SoulMateStrings {
    /// The key for each SoulMate server error code (`docs/soulmate.md`; `Sources/SoulMateAPI/openapi.yaml`).
    public static let serverCodes: [String: SoulMateString] = [
        "pair_code_not_found": .errorPairCodeNotFound,
        "own_pair_code": .errorOwnPairCode,
        "already_paired": .errorAlreadyPaired,
        "partner_already_paired": .errorPartnerAlreadyPaired,
        "pair_request_exists": .errorPairRequestExists,
        "pair_request_not_found": .errorRequestNotFound,
        "unpair_request_not_found": .errorRequestNotFound,
        "pair_request_closed": .errorRequestClosed,
        "unpair_request_closed": .errorRequestClosed,
        "not_paired": .errorNotPaired,
        "not_partner": .errorNotPaired,
        "unpair_request_exists": .errorUnpairRequestExists,
        "unpair_not_due": .errorUnpairNotDue,
        "session_locked": .errorSessionLocked,
        "no_session_lock": .errorNoSessionLock,
        "invalid_credentials": .errorInvalidCredentials,
        "partner_key_missing": .errorPartnerKeyMissing,
        "key_version_mismatch": .errorKeyChanged,
        "no_identity_key": .errorKeyChanged,
        "profile_incomplete": .errorProfileIncomplete,
        "rate_limited": .errorRateLimited,
        "no_location": .errorNoLocation,
        "unauthorized": .errorUnauthorized,
    ]

    /// The message for a server error code; `errorUnknown` for a code without one.
    public func message(forServerCode code: String) -> String {
        self[Self.serverCodes[code] ?? .errorUnknown]
    }

    /// The message for a SoulMateKit error (never its technical description).
    public func message(for error: SoulMateKitError) -> String {
        switch error {
        case .storeOpen, .storeRead, .storeWrite, .wrongKey, .corruptRow: self[.errorLocalStore]
        case .emptyMessage: self[.errorMessageEmpty]
        case .messageTooLong: self[.errorMessageTooLong]
        case .notEmoji: self[.errorNotEmoji]
        case .invalidGIF: self[.errorInvalidGIF]
        case .invalidLocation: self[.errorInvalidLocation]
        case .messageNotFound, .crypto, .invalidInput, .invalidServerData: self[.errorUnknown]
        case .client(let error): message(for: error)
        case .secureStore: self[.errorLocalStore]
        case .sessionLocked: self[.errorSessionLocked]
        case .logoutRefused: self[.sessionLogoutRefused]
        case .notPaired: self[.errorNotPaired]
        }
    }

    /// The message for a failure of the server or the session: the server code's message, or
    /// the network and sign-in messages.
    public func message(for error: KindredClientError) -> String {
        switch error {
        case .server(_, let code, _): message(forServerCode: code)
        case .transport: self[.errorNetwork]
        case .notSignedIn, .sessionExpired: self[.errorUnauthorized]
        case .invalidResponse, .storage: self[.errorUnknown]
        }
    }
}
