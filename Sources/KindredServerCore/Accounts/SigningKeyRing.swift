import Foundation
import KindredCrypto
import KindredStore
import Logging
import Synchronization

/// The signing keys one server process uses, kept current with the database: rotations and
/// retirements made by `kindred keys` (or another replica) reach it without a restart.
///
/// - Every `refreshInterval` (by the server's clock) the first request to notice re-reads the
///   keys before verifying; concurrent requests go on with the keys they have.
/// - A token naming a key id this process does not know (rotated in a moment ago) makes it
///   re-read the keys at once, at most once per `unknownKeyReloadInterval` of real time, so
///   made-up key ids cannot flood the database. A retired key id is refused without a read.
///
/// When a read fails (database down, keys sealed under another key-encryption key) the error is
/// logged and the keys in hand stay in use.
final class SigningKeyRing: Sendable {
    private struct State {
        var keys: SigningKeyStore.KeySet
        var loadedAt: Date
        var reloading = false
        var lastUnknownReload: ContinuousClock.Instant?
    }

    let store: SigningKeyStore
    private let logger: Logger
    private let state: Mutex<State>

    /// A ring over keys already read.
    init(store: SigningKeyStore, keys: SigningKeyStore.KeySet, logger: Logger) {
        self.store = store
        self.logger = logger
        state = Mutex(State(keys: keys, loadedAt: store.clock.now()))
    }

    /// Prepares the keys (`SigningKeyStore.prepare`) and makes the ring; warns loudly when the
    /// keys are stored in plaintext.
    /// - Throws: `SigningKeyError` (production mode without a key-encryption key, a wrong one, a
    ///   damaged row) or a database error.
    static func start(store: SigningKeyStore, logger: Logger) async throws -> SigningKeyRing {
        let keys = try await store.prepare()
        if store.settings.keyEncryptionKey == nil {
            logger.warning(
                "SIGNING KEYS ARE NOT ENCRYPTED: the access-token signing keys are stored in the database in plaintext; anyone with a copy of the database can mint access tokens. Set KINDRED_KEY_ENCRYPTION_KEY (openssl rand -base64 32) or KINDRED_KEY_ENCRYPTION_KEY_FILE; mode: production refuses to start without one"
            )
        }
        return SigningKeyRing(store: store, keys: keys, logger: logger)
    }

    /// The codec of the keys in hand.
    var codec: AccessTokenCodec { state.withLock { $0.keys.codec } }

    /// Whether `kid` names a key this process knows to be retired.
    func isRetired(_ kid: String) -> Bool { state.withLock { $0.keys.retired.contains(kid) } }

    /// Re-reads the keys when they are older than the refresh interval and no other request is
    /// re-reading them.
    func refreshIfStale() async {
        let now = store.clock.now()
        let claimed = state.withLock { state in
            guard !state.reloading, now.timeIntervalSince(state.loadedAt) >= store.settings.refreshInterval.timeInterval else {
                return false
            }
            state.reloading = true
            return true
        }
        if claimed { await reload() }
    }

    /// Re-reads the keys after a token named an unknown key id, unless that was done less than
    /// `unknownKeyReloadInterval` ago or another request is re-reading them.
    /// - Returns: whether the keys were re-read.
    func reloadForUnknownKey() async -> Bool {
        let instant = ContinuousClock.now
        let claimed = state.withLock { state in
            if state.reloading { return false }
            if let last = state.lastUnknownReload, last.duration(to: instant) < store.settings.unknownKeyReloadInterval {
                return false
            }
            state.reloading = true
            state.lastUnknownReload = instant
            return true
        }
        guard claimed else { return false }
        await reload()
        return true
    }

    /// Reads the keys now (the caller has set `reloading`); keeps the codec, and the tokens it
    /// remembers, when nothing changed.
    private func reload() async {
        let result: Result<SigningKeyStore.KeySet, any Error>
        do {
            result = .success(try await store.load())
        } catch {
            result = .failure(error)
        }
        let now = store.clock.now()
        state.withLock { state in
            state.reloading = false
            state.loadedAt = now
            if case .success(let keys) = result, keys.signature != state.keys.signature {
                state.keys = keys
            }
        }
        if case .failure(let error) = result {
            logger.error("cannot re-read the signing keys; going on with the keys in hand", metadata: ["error": "\(error)"])
        }
    }

    /// The `kid` of a token's header, if it has one.
    static func keyID(of token: String) -> String? {
        guard let dot = token.firstIndex(of: "."),
            let header = try? Base64.decode(token[..<dot], alphabet: .urlSafeNoPadding),
            let object = try? JSONSerialization.jsonObject(with: Data(header)) as? [String: Any]
        else { return nil }
        return object["kid"] as? String
    }
}
