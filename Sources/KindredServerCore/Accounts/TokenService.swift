import Crypto
import Foundation
import KindredCrypto
import KindredStore
import SQLKit

/// A freshly issued pair of tokens.
struct IssuedTokens: Sendable {
    var accessToken: String
    var refreshToken: String
    /// Seconds the access token lives.
    var expiresIn: Int
}

/// Issues, rotates, checks and revokes sessions and their tokens.
///
/// - Access tokens: HS256 JWTs (`AccessTokenCodec`) carrying user, session and app.
/// - Refresh tokens: 32 random bytes (43 base64url characters), stored as SHA-256 hashes; each
///   is used once. A token shown again within `reuseGrace` of its first use gets the same
///   successor pair it got the first time (a retry after a lost answer; sealed in its row,
///   `TokenService+Successor.swift`), never a second branch; later, the session is revoked.
struct TokenService: Sendable {
    let database: Database
    let clock: any WallClock
    /// The signing keys, kept current with the database (rotations reach every replica).
    let keyRing: SigningKeyRing
    let settings: AuthConfiguration
    /// The open realtime connections, closed when their session ends.
    var sessions = RealtimeSessions()
    /// `GET /v1/me`'s read: the session, credentials and premium expiry (`PremiumSource`).
    var sessionWithCredentialsStatement = TokenService.sessionWithCredentialsStatement(premium: nil)

    /// What a refresh attempt came to, decided inside its transaction.
    enum RefreshOutcome: Sendable {
        case issued(IssuedTokens, userID: String)
        case invalid
        case reused(sessionID: String)
        case disabled
    }

    /// The codec of the signing keys in hand: new tokens are signed with the active key.
    var codec: AccessTokenCodec { keyRing.codec }

    /// Exchanges a refresh token for a new pair, or says why not.
    func refresh(_ refreshToken: String, app: AppID) async throws -> RefreshOutcome {
        await keyRing.refreshIfStale()
        guard refreshToken.utf8.count == 43,
            (try? Base64.decode(refreshToken, alphabet: .urlSafeNoPadding)) != nil
        else { return .invalid }
        let hash = Self.hash(refreshToken)
        let now = clock.now()
        let nowMS = now.millisecondsSince1970
        let graceMS = settings.refreshReuseGrace.milliseconds
        return try await database.transaction { sql in
            // `FOR UPDATE` serialises two refreshes of one token on PostgreSQL; SQLite's
            // transaction already holds the write lock.
            var select = sql.select()
                .column(SQLColumn("used_at", table: "t")).column(SQLColumn("expires_at", table: "t"))
                .column(SQLColumn("session_id", table: "t")).column(SQLColumn("user_id", table: "t"))
                .column(SQLColumn("successor", table: "t"))
                .column(SQLColumn("app", table: "s")).column(SQLColumn("revoked_at", table: "s"))
                .column(SQLColumn("disabled_at", table: "u"))
                .from(SQLAlias(SQLIdentifier("kindred_refresh_tokens"), as: SQLIdentifier("t")))
                .join(SQLAlias(SQLIdentifier("kindred_sessions"), as: SQLIdentifier("s")),
                      on: SQLColumn("id", table: "s"), .equal, SQLColumn("session_id", table: "t"))
                .join(SQLAlias(SQLIdentifier("kindred_users"), as: SQLIdentifier("u")),
                      on: SQLColumn("id", table: "u"), .equal, SQLColumn("user_id", table: "t"))
                .where(SQLColumn("token_hash", table: "t"), .equal, SQLBind(hash))
            if sql.dialect.locksSelectedRows { select = select.for(.update) }
            guard let row = try await select.first() else { return .invalid }
            let sessionID = try row.decode(column: "session_id", as: String.self)
            let userID = try row.decode(column: "user_id", as: String.self)
            guard try row.decode(column: "app", as: String.self) == app.rawValue,
                try row.decode(column: "revoked_at", as: Int64?.self) == nil,
                try row.decode(column: "expires_at", as: Int64.self) > nowMS
            else { return .invalid }
            guard try row.decode(column: "disabled_at", as: Int64?.self) == nil else { return .disabled }
            if let usedAt = try row.decode(column: "used_at", as: Int64?.self) {
                // A retry within the grace window gets the pair the first use got; anything else
                // (late, or a successor that does not open with this token) revokes the family.
                if nowMS - usedAt <= graceMS,
                    let sealed = try row.decode(column: "successor", as: String?.self),
                    let successor = Self.openSuccessor(sealed, of: refreshToken)
                {
                    return .issued(successor, userID: userID)
                }
                try await sql.update("kindred_sessions").set("revoked_at", to: nowMS)
                    .where("id", .equal, sessionID).run()
                try await RealtimeSessions.announce(.session(sessionID), on: sql)
                return .reused(sessionID: sessionID)
            }
            try await sql.update("kindred_sessions").set("refreshed_at", to: nowMS)
                .set("expires_at", to: now.addingTimeInterval(settings.refreshTokenLifetime.timeInterval).millisecondsSince1970)
                .where("id", .equal, sessionID).run()
            let tokens = try await issue(userID: userID, sessionID: sessionID, app: app, now: now, on: sql)
            try await sql.update("kindred_refresh_tokens").set("used_at", to: nowMS)
                .set("successor", to: try Self.sealSuccessor(tokens, of: refreshToken))
                .where("token_hash", .equal, hash).run()
            return .issued(tokens, userID: userID)
        }
    }

    /// Revokes a session: its refresh tokens and access tokens stop working, and its realtime
    /// connections (on every replica) close.
    func revoke(sessionID: String) async throws {
        let now = clock.now().millisecondsSince1970
        try await database.transaction { sql in
            try await sql.update("kindred_sessions").set("revoked_at", to: now)
                .where("id", .equal, sessionID).where("revoked_at", .is, SQLLiteral.null).run()
            try await RealtimeSessions.announce(.session(sessionID), on: sql)
        }
        sessions.end(.session(sessionID))
    }

    /// Deletes refresh tokens past their expiry and sessions past theirs; for the housekeeping job.
    /// - Returns: the number of refresh tokens deleted.
    @discardableResult
    func purgeExpired(limit: Int = 1000) async throws -> Int {
        let now = clock.now()
        let purged = try await AccountsJobs.purgeExpiredRefreshTokens(database, now: now, limit: limit)
        guard purged > 0 else { return 0 }
        _ = try await AccountsJobs.purgeExpiredSessions(database, now: now, limit: limit)
        return purged
    }

    /// Mints an access token and a refresh token for a session (inside the caller's transaction).
    private func issue(
        userID: String, sessionID: String, app: AppID, now: Date, on sql: any SQLDatabase
    ) async throws -> IssuedTokens {
        let refreshToken = Base64.encode(SecureRandom.bytes(32), alphabet: .urlSafeNoPadding)
        try await sql.insert(into: "kindred_refresh_tokens")
            .columns("token_hash", "session_id", "user_id", "issued_at", "expires_at")
            .values(
                SQLBind(Self.hash(refreshToken)), SQLBind(sessionID), SQLBind(userID),
                SQLBind(now.millisecondsSince1970),
                SQLBind(now.addingTimeInterval(settings.refreshTokenLifetime.timeInterval).millisecondsSince1970)
            )
            .run()
        let issuedAt = Int64(now.timeIntervalSince1970)
        let lifetime = Int64(settings.accessTokenLifetime.components.seconds)
        let accessToken = codec.sign(
            AccessTokenClaims(iss: "kindred", sub: userID, sid: sessionID, app: app.rawValue, iat: issuedAt, exp: issuedAt + lifetime)
        )
        return IssuedTokens(accessToken: accessToken, refreshToken: refreshToken, expiresIn: Int(lifetime))
    }

    /// The stored form of a refresh token: lower-case hex SHA-256.
    static func hash(_ token: String) -> String {
        Hex.encode(SHA256.hash(data: Array(token.utf8)))
    }
}
