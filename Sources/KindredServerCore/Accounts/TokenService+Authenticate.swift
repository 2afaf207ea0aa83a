import KindredStore
import SQLKit

extension TokenService {
    /// Checks a bearer access token and loads its account and session in one query.
    /// - Throws: `missingToken`, `invalidToken`, `tokenExpired`, `sessionRevoked`, `accountDisabled`.
    func authenticate(authorization: String?, app: AppID) async throws -> AuthenticatedUser {
        let claims = try await verify(authorization: authorization, app: app)
        let rows = try await database.sql.all(sessionQuery(id: claims.sid, withCredentials: false))
        return try Self.authenticatedUser(rows.first, claims: claims)
    }

    /// `authenticate`, with the account's credentials and its stored billing record's latest
    /// expiration read by the same query (for `GET /v1/me`, which answers with all three).
    /// - Returns: the account, its credentials (oldest first, then by id) and, when billing has a record
    ///   for it, the latest expiration over its plans (Unix seconds): access lasts while it is
    ///   in the future (the record is recomputed in every transaction that changes the plans).
    func authenticateWithCredentials(
        authorization: String?, app: AppID
    ) async throws -> (user: AuthenticatedUser, credentials: [CredentialRecord], accessUntil: Int64?) {
        let claims = try await verify(authorization: authorization, app: app)
        let rows = try await database.sql.all(sessionQuery(id: claims.sid, withCredentials: true))
        let user = try Self.authenticatedUser(rows.first, claims: claims)
        // The left join gives one row without a credential when the account has none. Sorted
        // here rather than by the statement: an ORDER BY made SQLite build a sorter for the
        // one to three rows of every `GET /v1/me`.
        let credentials = try rows.compactMap { try CredentialRecord(joinedRow: $0, user: user.user) }
            .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        let accessUntil = try rows.first?.decode(column: "premium_until", as: Int64?.self) ?? nil
        return (user, credentials, accessUntil)
    }

    /// The claims of a valid access token of `app` in an `Authorization` header.
    private func verify(authorization: String?, app: AppID) async throws -> AccessTokenClaims {
        guard let authorization, !authorization.isEmpty else { throw KindredError.missingToken }
        guard let token = Self.bearerToken(in: authorization) else {
            throw KindredError.invalidToken("the Authorization header must be \"Bearer <access token>\"")
        }
        await keyRing.refreshIfStale()
        let claims: AccessTokenClaims
        do {
            claims = try await verifyWithKnownKeys(token)
        } catch {
            switch error {
            case .expired: throw KindredError.tokenExpired
            case .invalid(let why): throw KindredError.invalidToken(why)
            }
        }
        guard claims.app == app.rawValue else {
            throw KindredError.invalidToken("the access token belongs to another app")
        }
        return claims
    }

    /// Verifies `token` with the keys in hand; when it names a key id they lack (a rotation made
    /// elsewhere a moment ago), re-reads the keys (bounded, `SigningKeyRing`) and tries once more.
    /// A retired key is refused without a read.
    private func verifyWithKnownKeys(_ token: String) async throws(AccessTokenCodec.Refusal) -> AccessTokenClaims {
        do {
            return try keyRing.codec.verify(token, now: clock.now())
        } catch .invalid(AccessTokenCodec.unknownKeyReason) {
            guard let kid = SigningKeyRing.keyID(of: token) else { throw .invalid(AccessTokenCodec.unknownKeyReason) }
            if keyRing.isRetired(kid) { throw .invalid("the access token's key was retired") }
            guard await keyRing.reloadForUnknownKey() else { throw .invalid(AccessTokenCodec.unknownKeyReason) }
            if keyRing.isRetired(kid) { throw .invalid("the access token's key was retired") }
            return try keyRing.codec.verify(token, now: clock.now())
        }
    }

    /// The account of a session row, if the session is live and the account enabled.
    private static func authenticatedUser(_ row: (any SQLRow)?, claims: AccessTokenClaims) throws -> AuthenticatedUser {
        guard let row, try row.decode(column: "session_revoked_at", as: Int64?.self) == nil else {
            throw KindredError.sessionRevoked
        }
        let user = try UserRecord(row: row)
        guard user.id == claims.sub else { throw KindredError.invalidToken() }
        guard user.disabledAt == nil else { throw KindredError.accountDisabled }
        return AuthenticatedUser(user: user, sessionID: claims.sid)
    }

    /// The token after `Bearer ` (any case, extra spaces skipped), or nil when the header is not
    /// a bearer token.
    static func bearerToken(in authorization: String) -> String? {
        let bytes = authorization.utf8
        var index = bytes.startIndex
        for expected in "bearer ".utf8 {
            guard index < bytes.endIndex else { return nil }
            let byte = bytes[index]
            guard ((0x41...0x5A).contains(byte) ? byte | 0x20 : byte) == expected else { return nil }
            bytes.formIndex(after: &index)
        }
        guard index < bytes.endIndex else { return nil }
        while index < bytes.endIndex, bytes[index] == UInt8(ascii: " ") { bytes.formIndex(after: &index) }
        return String(authorization[index...])
    }

    // MARK: - The query

    /// The session ⋈ user query, optionally left-joined with the user's credentials.
    ///
    /// Written once (`StatementText`): it runs on every authenticated request, and building and
    /// serializing it each time cost more than the rest of the request's database work. The text
    /// is the same on both dialects; the session id is bound.
    func sessionQuery(id: String, withCredentials: Bool) -> StatementText.Bound {
        (withCredentials ? sessionWithCredentialsStatement : Self.sessionStatement).binding(id)
    }

    private static let userColumns = UserRecord.Columns.all.map { "u.\($0)" }.joined(separator: ", ")
        + ", s.revoked_at AS session_revoked_at"

    private static let sessionStatement = StatementText(
        "SELECT \(userColumns) FROM kindred_sessions s JOIN kindred_users u ON u.id = s.user_id WHERE s.id = ?"
    )

    /// The session, its credentials and, where a domain declared one (`Entitlements.premiumSource`,
    /// billing's record table), the premium expiry in the same read; without a source it reads
    /// NULL, so the core names no domain's table.
    static func sessionWithCredentialsStatement(premium: PremiumSource?) -> StatementText {
        let column = premium.map { "p.\($0.expiryColumn)" } ?? "NULL"
        let join = premium.map { " LEFT JOIN \($0.table) p ON p.\($0.userColumn) = u.id" } ?? ""
        return StatementText(
            "SELECT \(userColumns), \(CredentialRecord.joinedColumns), \(column) AS premium_until"
                + " FROM kindred_sessions s JOIN kindred_users u ON u.id = s.user_id"
                + " LEFT JOIN kindred_credentials c ON c.user_id = u.id\(join) WHERE s.id = ?"
        )
    }
}
