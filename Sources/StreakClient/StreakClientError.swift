import KindredClient
import StreakKit

/// Every failure of StreakSync's device network side, one case per kind of problem, each with a
/// message a person can act on.
public enum StreakClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The device's store failed or refused (the store's error says which).
    case store(StreakStoreError)
    /// The server or the session refused or failed (its code and message, or the transport's).
    case client(KindredClientError)
    /// An argument is not usable (the reason says which and why).
    case invalidInput(String)
    /// The server answered something this client does not understand.
    case invalidServerData(String)
    /// A guest is playing on this device (`StreakStore.startGuestMode`): nothing is sent to the
    /// server — no sync, no leaderboard publishing, no account or friend call — until the host is back.
    case guestMode
    /// The device's secure store, which keeps the scores waiting to be published, failed.
    case secureStore(SecureStoreError)

    /// The server's error code, when the server refused.
    public var serverCode: String? {
        if case .client(let error) = self { return error.serverCode }
        return nil
    }

    /// A stable snake_case code for scripts: the server's code, else the device's.
    public var code: String {
        switch self {
        case .store(let error): error.code
        case .client(let error):
            switch error {
            case .server(_, let code, _): code
            case .notSignedIn: "not_signed_in"
            case .sessionExpired: "session_expired"
            case .transport: "network"
            case .invalidResponse: "invalid_server_data"
            case .storage: "session_storage"
            }
        case .invalidInput: "invalid_input"
        case .invalidServerData: "invalid_server_data"
        case .guestMode: "guest_mode"
        case .secureStore: "secure_store"
        }
    }

    /// One line for people and logs; never contains a token.
    public var description: String {
        switch self {
        case .store(let error): error.description
        case .client(let error): error.description
        case .invalidInput(let reason): reason
        case .invalidServerData(let reason): "the server sent something unexpected: \(reason)"
        case .guestMode: "a guest is playing on this device: sync and leaderboards are off until `guest stop`"
        case .secureStore(let error): error.description
        }
    }
}
