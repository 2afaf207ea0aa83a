import Foundation
import KindredStore
import SQLKit

/// The retention job of device integrity, `integrity.purge-expired`: challenges and verdicts
/// must not accumulate (docs/device-integrity.md, "Retention").
///
/// Deleted, in pages: challenges that expired more than a day ago (used or not; within that day a
/// late submission still gets 410 `challenge_expired`, and `issue` clears the same ones per user),
/// and verdicts older than the retention that no longer decide anything — every pass (a pass
/// counts as missing after `integrity.verdictMaxAgeSeconds`, at most 30 days, and the retention
/// is at least that) and every verdict a newer record of the same user, app and device has
/// superseded. A device's newest verdict when it is a failure is kept, so purging never turns a
/// failed device into a missing one.
package enum IntegrityPurge {
    /// The job's name.
    package static let jobName = "integrity.purge-expired"

    /// How long after its expiry a challenge is kept (one day).
    package static let challengeGrace: Duration = .seconds(86_400)

    /// Registers `integrity.purge-expired`: hourly at :53, 500 rows per page.
    /// - Parameter retention: how long verdicts are kept (`integrity.verdictRetentionDays`).
    package static func registerJobs(on platform: Platform, retention: Duration) throws(JobError) {
        let days = Int(retention.components.seconds / 86_400)
        try platform.jobs.register(
            Job(jobName, schedule: "53 * * * *") { context in
                let challenges = try await context.forEachPage(limit: 500) { limit in
                    try await purgeChallenges(database: context.database, clock: context.clock, limit: limit)
                }
                let verdicts = try await context.forEachPage(limit: 500) { limit in
                    try await purgeVerdicts(database: context.database, clock: context.clock, retention: retention, limit: limit)
                }
                return "deleted \(challenges) expired challenges and \(verdicts) verdicts older than \(days) days"
            }
        )
    }

    /// Deletes up to `limit` challenges that expired more than `challengeGrace` ago (index on
    /// `expires_at`, migration `integrity_0002_challenge_expiry`).
    /// - Returns: how many were deleted.
    package static func purgeChallenges(database: Database, clock: any WallClock, limit: Int) async throws -> Int {
        let cutoff = clock.now().millisecondsSince1970 - challengeGrace.integrityMilliseconds
        let hashes = try await database.sql.raw("""
            SELECT challenge_hash FROM kindred_integrity_challenges WHERE expires_at < \(bind: cutoff)
            ORDER BY expires_at LIMIT \(bind: limit)
            """).all().map { try $0.decode(column: "challenge_hash", as: String.self) }
        guard !hashes.isEmpty else { return 0 }
        try await database.sql.delete(from: "kindred_integrity_challenges").where("challenge_hash", .in, hashes).run()
        return hashes.count
    }

    /// Deletes up to `limit` verdicts recorded before now − `retention` that are passes or have a
    /// newer record for the same user, app and device (index on `created_at`, and the device
    /// index for the newer-record check).
    /// - Returns: how many were deleted.
    package static func purgeVerdicts(database: Database, clock: any WallClock, retention: Duration, limit: Int) async throws -> Int {
        let cutoff = clock.now().millisecondsSince1970 - retention.integrityMilliseconds
        let ids = try await database.sql.raw("""
            SELECT v.id FROM kindred_integrity_verdicts v
            WHERE v.created_at < \(bind: cutoff) AND (v.verdict = 'passed' OR EXISTS (
                SELECT 1 FROM kindred_integrity_verdicts n
                WHERE n.user_id = v.user_id AND n.app = v.app AND n.device = v.device AND n.created_at > v.created_at))
            ORDER BY v.created_at LIMIT \(bind: limit)
            """).all().map { try $0.decode(column: "id", as: String.self) }
        guard !ids.isEmpty else { return 0 }
        try await database.sql.delete(from: "kindred_integrity_verdicts").where("id", .in, ids).run()
        return ids.count
    }
}
