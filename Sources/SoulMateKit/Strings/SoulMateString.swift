/// The key of every user-facing string of SoulMateKit and of `kindred chat`, one table for
/// Turkish and English (`SoulMateStrings`). A string with arguments has `%@` placeholders (or
/// `%1$@`, `%2$@` … where a language needs another order); both languages of a key take the
/// same arguments. The raw value is the key's stable name.
public enum SoulMateString: String, CaseIterable, Sendable {
    // MARK: Routes (the app flow)
    /// No session: sign in or sign up.
    case routeAuth = "route.auth"
    /// Signed in, first or last name missing.
    case routeProfileCompletion = "route.profileCompletion"
    /// Signed in, not paired.
    case routePairing = "route.pairing"
    /// Paired: the chat.
    case routeChat = "route.chat"
    /// Another installation holds the session lock.
    case routeSessionLocked = "route.sessionLocked"

    // MARK: Pair code
    /// My code. Argument: the 6 digits.
    case pairCodeYours = "pairCode.yours"
    /// Why to share the code.
    case pairCodeShare = "pairCode.share"
    /// Prompt for the partner's code.
    case pairCodeEnter = "pairCode.enter"
    /// The entered code is not 6 digits.
    case pairCodeInvalid = "pairCode.invalid"

    // MARK: Pair requests
    /// Argument: the recipient's name.
    case pairRequestSent = "pairRequest.sent"
    /// Argument: the sender's name.
    case pairRequestReceived = "pairRequest.received"
    /// Argument: the partner's name.
    case pairRequestAccepted = "pairRequest.accepted"
    /// Argument: the recipient's name.
    case pairRequestRejected = "pairRequest.rejected"
    /// A pair request was withdrawn.
    case pairRequestCancelled = "pairRequest.cancelled"
    /// The box of received requests.
    case pairRequestIncoming = "pairRequest.incoming"
    /// The box of sent requests.
    case pairRequestOutgoing = "pairRequest.outgoing"
    /// Button: accept.
    case actionAccept = "action.accept"
    /// Button: decline.
    case actionReject = "action.reject"
    /// Button: withdraw my request.
    case actionCancelRequest = "action.cancelRequest"
    /// The badge, one request. Argument: the count.
    case pendingRequestsOne = "pendingRequests.one"
    /// The badge, several requests. Argument: the count.
    case pendingRequestsOther = "pendingRequests.other"

    // MARK: Unpairing
    /// Argument: the partner's name.
    case unpairRequested = "unpair.requested"
    /// My unpair request went out.
    case unpairSent = "unpair.sent"
    /// The pair ended and the conversation was wiped.
    case unpairAccepted = "unpair.accepted"
    /// Argument: the partner's name.
    case unpairRejected = "unpair.rejected"
    /// You declined your partner's request to end the pairing.
    case unpairYouDeclined = "unpair.youDeclined"
    /// An unpair request was withdrawn.
    case unpairCancelled = "unpair.cancelled"
    /// Argument: the date from which I may leave alone.
    case unpairCanLeaveAt = "unpair.canLeaveAt"

    // MARK: Messages
    /// An outgoing message the relay accepted.
    case messageSent = "message.sent"
    /// An outgoing message not sent yet.
    case messagePending = "message.pending"
    /// An outgoing message whose upload failed.
    case messageFailed = "message.failed"
    /// An incoming envelope that did not decrypt.
    case messageUndecryptable = "message.undecryptable"
    /// A hidden secret message.
    case messageSecretHidden = "message.secretHidden"
    /// How to open a secret message.
    case messageSecretTapToOpen = "message.secretTapToOpen"
    /// A heartbeat from the partner. Argument: the partner's name.
    case messageHeartbeatIncoming = "message.heartbeatIncoming"
    /// A heartbeat I sent.
    case messageHeartbeatOutgoing = "message.heartbeatOutgoing"
    /// A GIF's label.
    case messageGIF = "message.gif"
    /// My messages' author label.
    case messageYou = "message.you"
    /// An empty chat.
    case chatEmpty = "chat.empty"
    /// The composer's placeholder.
    case chatComposerPlaceholder = "chat.composerPlaceholder"

    // MARK: Notifications
    /// A preview's title when the sender's name is unknown.
    case notificationTitle = "notification.title"
    /// The generic preview (no envelope, or it did not open).
    case notificationNewMessage = "notification.newMessage"
    /// A secret message's preview (hidden).
    case notificationSecret = "notification.secret"
    /// A GIF's preview.
    case notificationGIF = "notification.gif"
    /// A heartbeat's preview.
    case notificationHeartbeat = "notification.heartbeat"

    // MARK: Relationship status
    /// Argument: the date.
    case statusTogetherSince = "status.togetherSince"
    /// Day 1. Argument: the day count.
    case statusDaysOne = "status.days.one"
    /// Argument: the day count.
    case statusDaysOther = "status.days.other"
    /// Argument: metres.
    case distanceMetres = "distance.metres"
    /// Argument: kilometres.
    case distanceKilometres = "distance.kilometres"
    /// Under 100 m.
    case distanceTogether = "distance.together"
    /// 1,000 km or more. Argument: kilometres.
    case distanceFarApart = "distance.farApart"
    /// No location of one of the partners.
    case distanceUnknown = "distance.unknown"

    // MARK: Session lock
    /// Logout refused: the lock could not be released.
    case sessionLogoutRefused = "session.logoutRefused"
    /// This installation lost the lock to another one.
    case sessionSignedOutElsewhere = "session.signedOutElsewhere"
    /// Sign-in refused. Argument: the device holding the lock.
    case sessionLockedOn = "session.lockedOn"
    /// Logout done.
    case sessionSignedOut = "session.signedOut"

    // MARK: Errors (server codes and local failures)
    /// `pair_code_not_found`
    case errorPairCodeNotFound = "error.pairCodeNotFound"
    /// `own_pair_code`
    case errorOwnPairCode = "error.ownPairCode"
    /// `already_paired`
    case errorAlreadyPaired = "error.alreadyPaired"
    /// `partner_already_paired`
    case errorPartnerAlreadyPaired = "error.partnerAlreadyPaired"
    /// `pair_request_exists`
    case errorPairRequestExists = "error.pairRequestExists"
    /// `pair_request_not_found`, `unpair_request_not_found`
    case errorRequestNotFound = "error.requestNotFound"
    /// `pair_request_closed`, `unpair_request_closed`
    case errorRequestClosed = "error.requestClosed"
    /// `not_paired`
    case errorNotPaired = "error.notPaired"
    /// `unpair_request_exists`
    case errorUnpairRequestExists = "error.unpairRequestExists"
    /// `unpair_not_due`
    case errorUnpairNotDue = "error.unpairNotDue"
    /// `session_locked`
    case errorSessionLocked = "error.sessionLocked"
    /// `no_session_lock`
    case errorNoSessionLock = "error.noSessionLock"
    /// `invalid_credentials`
    case errorInvalidCredentials = "error.invalidCredentials"
    /// `partner_key_missing`
    case errorPartnerKeyMissing = "error.partnerKeyMissing"
    /// `key_version_mismatch`, `no_identity_key`
    case errorKeyChanged = "error.keyChanged"
    /// `profile_incomplete`
    case errorProfileIncomplete = "error.profileIncomplete"
    /// `rate_limited`
    case errorRateLimited = "error.rateLimited"
    /// `no_location`
    case errorNoLocation = "error.noLocation"
    /// The server could not be reached.
    case errorNetwork = "error.network"
    /// The token is gone or expired.
    case errorUnauthorized = "error.unauthorized"
    /// Anything else.
    case errorUnknown = "error.unknown"
    /// An empty message.
    case errorMessageEmpty = "error.messageEmpty"
    /// A message over 16 KiB.
    case errorMessageTooLong = "error.messageTooLong"
    /// An emoji message with other characters.
    case errorNotEmoji = "error.notEmoji"
    /// An unusable GIF.
    case errorInvalidGIF = "error.invalidGIF"
    /// An invalid location.
    case errorInvalidLocation = "error.invalidLocation"
    /// The local message store failed.
    case errorLocalStore = "error.localStore"
}
