import Foundation
import KindredStore
import SQLKit

/// The accounts domain's housekeeping jobs.
enum AccountsJobs {
    /// Registers `accounts.purge-expired-tokens` (every 15 minutes): deletes refresh tokens,
    /// then sessions, then identity-token use records past their expiry, one page at a time.
    static func register(on platform: Platform) throws(JobError) {
        try platform.jobs.register(
            Job("accounts.purge-expired-tokens", schedule: "*/15 * * * *") { context in
                let now = context.clock.now()
                let tokens = try await context.forEachPage(limit: 500) { limit in
                    try await purgeExpiredRefreshTokens(context.database, now: now, limit: limit)
                }
                let sessions = try await context.forEachPage(limit: 500) { limit in
                    try await purgeExpiredSessions(context.database, now: now, limit: limit)
                }
                let uses = try await context.forEachPage(limit: 500) { limit in
                    try await IdentityTokenUse.purgeExpired(context.database, now: now, limit: limit)
                }
                return "deleted \(tokens) expired refresh tokens, \(sessions) expired sessions and \(uses) identity token uses"
            }
        )
    }

    /// Deletes at most `limit` refresh tokens that expired at or before `now`.
    /// - Returns: how many were deleted.
    static func purgeExpiredRefreshTokens(_ database: Database, now: Date, limit: Int) async throws -> Int {
        let expired = try await database.sql.select().column("token_hash").from("kindred_refresh_tokens")
            .where("expires_at", .lessThanOrEqual, now.millisecondsSince1970).limit(limit).all()
            .map { try $0.decode(column: "token_hash", as: String.self) }
        guard !expired.isEmpty else { return 0 }
        try await database.sql.delete(from: "kindred_refresh_tokens").where("token_hash", .in, expired).run()
        return expired.count
    }

    /// Deletes at most `limit` sessions that expired at or before `now` (their tokens cascade).
    /// - Returns: how many were deleted.
    static func purgeExpiredSessions(_ database: Database, now: Date, limit: Int) async throws -> Int {
        let expired = try await database.sql.select().column("id").from("kindred_sessions")
            .where("expires_at", .lessThanOrEqual, now.millisecondsSince1970).limit(limit).all()
            .map { try $0.decode(column: "id", as: String.self) }
        guard !expired.isEmpty else { return 0 }
        try await database.sql.delete(from: "kindred_sessions").where("id", .in, expired).run()
        return expired.count
    }
}
