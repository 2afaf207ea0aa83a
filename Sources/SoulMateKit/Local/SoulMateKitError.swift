import KindredClient
import KindredCrypto

/// Every failure of SoulMateKit, one case per kind of problem, each with a message a person can act on.
///
/// The descriptions never contain a key, a message or a location.
public enum SoulMateKitError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The local message store could not be opened, created or migrated at `path`.
    case storeOpen(path: String, reason: String)
    /// The local message store could not be read.
    case storeRead(String)
    /// The local message store could not be written (the change was rolled back).
    case storeWrite(String)
    /// The local key given to the store does not open it (another device's or a replaced key).
    case wrongKey
    /// A stored row does not decrypt under its own metadata, or holds values outside the schema:
    /// the file was modified, or rows were swapped.
    case corruptRow(id: String, reason: String)
    /// No stored message has this id.
    case messageNotFound(id: String)
    /// A message value is empty, or only white space, where its kind needs content.
    case emptyMessage(kind: ChatPayload.Kind)
    /// A message value is over the wire format's limit (UTF-8 bytes).
    case messageTooLong(bytes: Int, limit: Int)
    /// An emoji message holds something other than emoji.
    case notEmoji
    /// A GIF's URL or id is not usable (the reason says which).
    case invalidGIF(String)
    /// A latitude, longitude or time of a location is out of range, or a sealed location is malformed.
    case invalidLocation(String)
    /// A pair-key operation failed: wrong key, modified ciphertext, malformed Base64.
    case crypto(KindredCryptoError)
    /// An argument is not usable (the reason says which and why).
    case invalidInput(String)
    /// The server or the session refused or failed (its code and message, or the transport's).
    case client(KindredClientError)
    /// The secure store (keychain, or the profile's encrypted file) failed.
    case secureStore(SecureStoreError)
    /// Another installation holds the account's single-device lock.
    case sessionLocked(String)
    /// Logging out needs the server to release the session lock first, and it did not.
    case logoutRefused(String)
    /// This device has no pair (or the server says the pair ended).
    case notPaired
    /// The server answered something this kit does not understand.
    case invalidServerData(String)

    /// One line for people and logs; never contains a key, a message or a location.
    public var description: String {
        switch self {
        case .storeOpen(let path, let reason): "local messages: cannot open \(path): \(reason)"
        case .storeRead(let reason): "local messages: cannot read: \(reason)"
        case .storeWrite(let reason): "local messages: cannot write: \(reason)"
        case .wrongKey: "local messages: the local key does not open this store (it belongs to another key)"
        case .corruptRow(let id, let reason): "local messages: row \(id) is corrupt or was modified: \(reason)"
        case .messageNotFound(let id): "local messages: no message with id \(id)"
        case .emptyMessage(let kind): "a \(kind.rawValue) message cannot be empty"
        case .messageTooLong(let bytes, let limit): "the message is \(bytes) bytes; the limit is \(limit)"
        case .notEmoji: "an emoji message may hold only emoji"
        case .invalidGIF(let reason): "GIF: \(reason)"
        case .invalidLocation(let reason): "location: \(reason)"
        case .crypto(let error): error.description
        case .invalidInput(let reason): reason
        case .client(let error): error.description
        case .secureStore(let error): error.description
        case .sessionLocked(let message): message
        case .logoutRefused(let reason): "logout refused: the session lock could not be released (\(reason)); try again when online"
        case .notPaired: "you are not paired"
        case .invalidServerData(let reason): "the server sent something unexpected: \(reason)"
        }
    }
}
