import Foundation
import KindredServerCore
import KindredStore
import SQLKit
import StreakAPI

/// StreakSync's server side (issue 29, docs/streaksync.md): the sync of results and achievements,
/// profiles, friend codes and friendships, scores with their readers, and leaderboards. One
/// extension per concern.
struct StreakController: Sendable {
    let database: Database
    let clock: any WallClock
    let settings: StreakSettings
    let events: StreakEvents
    let accounts: AccountsController
    let rateLimiter: RateLimiter

    /// The current time in milliseconds.
    var nowMS: Int64 { clock.now().millisecondsSince1970 }

    /// Refuses callers of other apps.
    static func requireStreakSync(_ user: AuthenticatedUser) throws {
        guard user.app == AppID.streaksync.rawValue else { throw KindredError.wrongApp }
    }

    static func date(_ ms: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(ms) / 1000) }
}
