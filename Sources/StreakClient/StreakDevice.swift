import Foundation
import KindredClient
import StreakKit

/// One StreakSync device: the account's session and the local store, with the account, sync,
/// friends and leaderboard flows on top of them (docs/streaksync-device.md, "Sync").
///
/// The store is the source of truth on the device: results are recorded there first (and work
/// offline, queued), and `sync()` uploads the queue in order, then pulls what other devices changed.
public struct StreakDevice: Sendable {
    /// The signed-in session (tokens in the profile); may be signed out for local-only use.
    public let session: KindredSession
    /// The results, achievements, settings and offline queue.
    public let store: StreakStore
    /// The scores waiting to be published, in the device's secure store.
    public let pendingScores: PendingScoreVault
    /// The clock.
    let now: @Sendable () -> Date

    /// A device from its parts; `secureStore` keeps the scores waiting to be published (the
    /// default, in memory, forgets them when the device is released: for tests and previews).
    public init(
        session: KindredSession, store: StreakStore, secureStore: any SecureStore = InMemorySecureStore(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.session = session
        self.store = store
        pendingScores = PendingScoreVault(secureStore: secureStore)
        self.now = now
    }

    /// A device in a profile folder (the `kindred streaks` devices): the session's tokens beside
    /// `streaksync.sqlite`, and the pending scores in the profile's `FileSecureStore`
    /// (passphrase mode when `KINDRED_PROFILE_PASSPHRASE` is set in `environment`).
    /// - Throws: `.store` when the store cannot be opened.
    public static func profile(
        at folder: URL, session: KindredSession, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(StreakClientError) -> StreakDevice {
        let store: StreakStore
        do {
            store = try StreakStore.profile(at: folder)
        } catch {
            throw .store(error)
        }
        return StreakDevice(session: session, store: store, secureStore: FileSecureStore(profileDirectory: folder, environment: environment))
    }

    /// The signed-in account's id. - Throws: `.client(.notSignedIn)` without a session.
    public func userID() async throws(StreakClientError) -> String {
        do throws(KindredClientError) {
            guard let stored = try await session.storedSession() else { throw .notSignedIn }
            return stored.userID
        } catch {
            throw .client(error)
        }
    }

    /// Runs a store call, mapping its error.
    func local<T>(_ body: () throws(StreakStoreError) -> T) throws(StreakClientError) -> T {
        do { return try body() } catch { throw .store(error) }
    }
}
