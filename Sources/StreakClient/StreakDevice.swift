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
    /// The clock.
    let now: @Sendable () -> Date

    /// A device from its parts.
    public init(session: KindredSession, store: StreakStore, now: @escaping @Sendable () -> Date = { Date() }) {
        self.session = session
        self.store = store
        self.now = now
    }

    /// A device in a profile folder (the `kindred streaks` devices): the session's tokens beside
    /// `streaksync.sqlite`.
    /// - Throws: `.store` when the store cannot be opened.
    public static func profile(at folder: URL, session: KindredSession) throws(StreakClientError) -> StreakDevice {
        do {
            return StreakDevice(session: session, store: try StreakStore.profile(at: folder))
        } catch {
            throw .store(error)
        }
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
