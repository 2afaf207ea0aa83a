import KindredServerCore

/// The refusals of Closer's games, each with its stable code (listed in openapi.yaml, tag `games`).
extension KindredError {
    /// 404 `game_pack_not_found`.
    static let gamePackNotFound = refused(status: 404, code: "game_pack_not_found", message: "no such game pack")
    /// 404 `game_session_not_found`.
    static let gameSessionNotFound = refused(status: 404, code: "game_session_not_found", message: "no such game session")
    /// 400 `invalid_game` naming the problem.
    static func invalidGame(_ why: String) -> KindredError { refused(status: 400, code: "invalid_game", message: why) }
    /// 409 `game_commitment_exists`: the caller already committed to another value in this round.
    static let gameCommitmentExists = refused(
        status: 409, code: "game_commitment_exists", message: "you already committed in this round; a commitment cannot change"
    )
    /// 409 `game_commitment_replayed`: this commitment was already used in a slot.
    static let gameCommitmentReplayed = refused(
        status: 409, code: "game_commitment_replayed", message: "this commitment was already used; commit to a fresh nonce"
    )
    /// 409 `game_round_not_open`: the previous round is not opened by both partners yet.
    static let gameRoundNotOpen = refused(
        status: 409, code: "game_round_not_open", message: "this round opens once both partners opened the previous one"
    )
    /// 409 `game_not_committed`: an opening before the caller's own commitment.
    static let gameNotCommitted = refused(status: 409, code: "game_not_committed", message: "commit to your slot before opening it")
    /// 409 `game_waiting_for_partner`: an opening before the partner's commitment.
    static let gameWaitingForPartner = refused(
        status: 409, code: "game_waiting_for_partner", message: "your partner has not committed yet; open your slot after they do"
    )
    /// 409 `game_opening_mismatch`: the opening does not hash to the commitment.
    static let gameOpeningMismatch = refused(
        status: 409, code: "game_opening_mismatch", message: "this opening does not match your commitment"
    )
    /// 409 `game_opening_exists`: a different opening after one was accepted.
    static let gameOpeningExists = refused(status: 409, code: "game_opening_exists", message: "your slot is already opened; it cannot change")
}

extension NotificationType {
    /// The partner started a game, or a game waits on the recipient.
    public static let closerGameSession = NotificationType(rawValue: "game_session")
}
