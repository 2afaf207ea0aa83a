import Foundation

/// What a slot's ciphertext holds (docs/wire-formats.md, "Closer games"): the session, member and
/// round it belongs to (checked on opening, so a ciphertext cannot be replayed elsewhere) and the
/// game's own fields.
public struct GameSlotContent: Codable, Sendable, Equatable {
    /// 1.
    public var v: Int
    /// The session.
    public var sessionId: String
    /// The member whose slot this is.
    public var userId: String
    /// The round.
    public var round: Int
    /// This or That: 0 or 1 per item; How Well: the option index per item.
    public var choices: [Int]?
    /// How Well: `self` (answers about themself) or `guess`.
    public var role: String?
    /// Spin the Wheel: 32 random bytes, standard Base64.
    public var share: String?
    /// Desire Sync round 1: the member's blinded set (x-coordinates, Base64).
    public var blinded: [String]?
    /// Desire Sync round 2: the partner's round-1 set blinded again, in the partner's order.
    public var doubleBlinded: [String]?

    /// Creates a slot's content.
    public init(
        sessionId: String, userId: String, round: Int = 1, choices: [Int]? = nil, role: String? = nil, share: String? = nil,
        blinded: [String]? = nil, doubleBlinded: [String]? = nil
    ) {
        v = 1
        self.sessionId = sessionId
        self.userId = userId
        self.round = round
        self.choices = choices
        self.role = role
        self.share = share
        self.blinded = blinded
        self.doubleBlinded = doubleBlinded
    }
}
