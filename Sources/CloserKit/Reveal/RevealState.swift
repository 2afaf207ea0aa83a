/// Where a sealed daily answer stands, as one device sees it.
///
/// `unanswered` → `waitingForPartner` → `partnerAnswered` → `releasingKeys` → `revealed`;
/// `tampered` when the partner's answer (or this account's own, as the server returns it) does
/// not match its commitment or commitment seal; `failed` when the reveal cannot go on.
public enum RevealState: Equatable, Sendable, CustomStringConvertible {
    /// This account has not answered the question.
    case unanswered
    /// Answered; the partner has not.
    case waitingForPartner
    /// Both answered; this device has not released its one-time key yet.
    case partnerAnswered
    /// This device released its key; the partner's key has not arrived.
    case releasingKeys
    /// Both answers, opened and checked.
    case revealed(mine: String, partner: String)
    /// The server's data does not match what was sealed (the reason says which check failed).
    case tampered(String)
    /// The reveal cannot go on (the reason says why).
    case failed(String)

    /// The state's name as `kindred closer` prints it.
    public var name: String {
        switch self {
        case .unanswered: "unanswered"
        case .waitingForPartner: "waiting for partner"
        case .partnerAnswered: "partner answered"
        case .releasingKeys: "releasing keys"
        case .revealed: "revealed"
        case .tampered: "tampered"
        case .failed: "failed"
        }
    }

    /// The name, with the reason for `tampered` and `failed` (never an answer's text).
    public var description: String {
        switch self {
        case .tampered(let reason), .failed(let reason): "\(name): \(reason)"
        default: name
        }
    }
}

/// A sealed answer as the server holds it (`encryptedPayload`, `commitmentHash`, `commitmentSeal`).
public struct SealedDocument: Equatable, Sendable {
    /// `sealed:v1:`.
    public let payload: String
    /// `sha256:`.
    public let commitment: String
    /// `enc:v1:`.
    public let commitmentSeal: String

    /// A document from its three strings.
    public init(payload: String, commitment: String, commitmentSeal: String) {
        self.payload = payload
        self.commitment = commitment
        self.commitmentSeal = commitmentSeal
    }
}
