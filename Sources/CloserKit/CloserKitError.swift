import KindredClient
import KindredCrypto

/// Every failure of CloserKit, one case per kind of problem, each with a message a person can act on.
public enum CloserKitError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The secure store could not be read, written or decrypted (the reason says which and where).
    case secureStore(String)
    /// The pending-answer-key database could not be opened, read or written.
    case pendingStore(String)
    /// A cryptographic operation failed (wrong phrase, wrong invite secret, malformed wire string, …).
    case crypto(KindredCryptoError)
    /// The server refused the request, could not be reached, or the session is missing.
    case client(KindredClientError)
    /// This device holds no couple key yet: accept an invite, create one, or recover with the phrase.
    case notPaired
    /// The account is not in a couple on the server.
    case noCouple
    /// There is no question assigned to the couple yet.
    case noQuestion
    /// An answer for this question was already sent from this account.
    case alreadyAnswered
    /// This account already posted its message in this thread (one message per member).
    case alreadyPosted
    /// The couple has no thread on this question yet.
    case noThread
    /// What the server returned does not match what its author sealed (the reason says which check failed).
    case tampered(String)
    /// The phrase on this device no longer opens the couple key on the server (the partner changed it).
    case stalePhrase
    /// The server's data does not have the shape the contract promises (the reason says what).
    case invalidServerData(String)
    /// The input given to a command is not usable (the reason says why).
    case invalidInput(String)

    /// One line for people and logs; never contains a key, a phrase or an answer.
    public var description: String {
        switch self {
        case .secureStore(let reason): "secure store: \(reason)"
        case .pendingStore(let reason): "pending answer keys: \(reason)"
        case .crypto(let error): error.description
        case .client(let error): error.description
        case .notPaired: "this device holds no couple key: create or accept an invite, or recover with the phrase"
        case .noCouple: "not in a couple: create or accept an invite first"
        case .noQuestion: "no question is assigned to the couple yet"
        case .alreadyAnswered: "today's question is already answered"
        case .alreadyPosted: "you already posted your message in this thread"
        case .noThread: "there is no thread on this question yet: post a message first"
        case .tampered(let reason): "tampered: \(reason)"
        case .stalePhrase: "the recovery phrase on this device no longer opens the couple key (your partner changed it): ask for the new phrase and run recover"
        case .invalidServerData(let reason): "unexpected data from the server: \(reason)"
        case .invalidInput(let reason): reason
        }
    }
}
