import Foundation
import KindredCrypto
import KindredStore
import SQLKit

/// A session made ready outside any transaction: its ids, timestamps and tokens, so that the
/// transaction that stores it runs only its two inserts.
///
/// SQLite's group commit runs transaction bodies one after another on one writer; signing a
/// token or drawing randomness inside a body would hold up every transaction behind it.
struct NewSession: Sendable {
    var sessionID: String
    var userID: String
    var app: AppID
    var createdAt: Int64
    var expiresAt: Int64
    var refreshTokenHash: String
    /// What the client receives once the session is stored.
    var tokens: IssuedTokens
}

extension TokenService {
    /// Makes a session for `userID` and its first pair of tokens, without storing anything (the
    /// signing keys are re-read first when they are older than their refresh interval).
    func newSession(userID: String, app: AppID) async -> NewSession {
        await keyRing.refreshIfStale()
        let now = clock.now()
        // Time-ordered: the session's rows and its refresh tokens' index on it then grow at their
        // ends, two fewer random pages written per sign-up (see `RandomID.makeTimeOrdered`).
        let sessionID = RandomID.makeTimeOrdered(milliseconds: now.millisecondsSince1970)
        let refreshToken = Base64.encode(SecureRandom.bytes(32), alphabet: .urlSafeNoPadding)
        let issuedAt = Int64(now.timeIntervalSince1970)
        let lifetime = Int64(settings.accessTokenLifetime.components.seconds)
        let accessToken = codec.sign(
            AccessTokenClaims(iss: "kindred", sub: userID, sid: sessionID, app: app.rawValue, iat: issuedAt, exp: issuedAt + lifetime)
        )
        return NewSession(
            sessionID: sessionID, userID: userID, app: app, createdAt: now.millisecondsSince1970,
            expiresAt: now.addingTimeInterval(settings.refreshTokenLifetime.timeInterval).millisecondsSince1970,
            refreshTokenHash: Self.hash(refreshToken),
            tokens: IssuedTokens(accessToken: accessToken, refreshToken: refreshToken, expiresIn: Int(lifetime))
        )
    }

    /// Stores `session` and its refresh token (inside the caller's transaction).
    /// - Returns: the tokens to hand to the client.
    private static let insertSession = StatementText(
        "INSERT INTO kindred_sessions (id, user_id, app, created_at, refreshed_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)"
    )
    private static let insertRefreshToken = StatementText(
        "INSERT INTO kindred_refresh_tokens (token_hash, session_id, user_id, issued_at, expires_at) VALUES (?, ?, ?, ?, ?)"
    )

    func insert(_ session: NewSession, on sql: any SQLDatabase) async throws -> IssuedTokens {
        // Written once (`StatementText`): building and serializing statements on every run cost as
        // much as running the inserts, on the writer every sign-up waits for.
        try await sql.run(Self.insertSession.binding(
            session.sessionID, session.userID, session.app.rawValue, session.createdAt, session.createdAt,
            session.expiresAt
        ))
        try await sql.run(Self.insertRefreshToken.binding(
            session.refreshTokenHash, session.sessionID, session.userID, session.createdAt, session.expiresAt
        ))
        return session.tokens
    }
}
