import KindredServerCore
import Foundation
import KindredStore

/// The admin console's housekeeping job.
///
/// Failed console logins need no job of their own: they are `RateLimiter` events, which the
/// platform's `platform.prune-rate-limits` deletes once they are older than every window.
enum AdminJobs {
    /// Registers `admin.purge-sessions` (every 30 minutes): deletes console sessions past their
    /// lifetime or unused for the idle timeout, one page at a time. Sessions a logout or a
    /// disabled operator ended are deleted at once and need no purge.
    static func register(
        on platform: Platform, database: Database, clock: any WallClock, settings: AdminSettings
    ) throws(JobError) {
        let sessions = AdminSessions(database: database, clock: clock, settings: settings)
        try platform.jobs.register(
            Job("admin.purge-sessions", schedule: "*/30 * * * *") { context in
                let now = context.clock.now()
                let deleted = try await context.forEachPage(limit: 500) { limit in
                    try await sessions.purgeEnded(now: now, limit: limit)
                }
                return "deleted \(deleted) ended admin console sessions"
            }
        )
    }
}
