import KindredStore
import SQLKit

extension TokenService {
    /// Checks that a session is still open and its account enabled, without a token (a realtime
    /// ticket stands for the session).
    /// - Returns: the account and session.
    /// - Throws: `sessionRevoked`, `accountDisabled`.
    func authenticate(sessionID: String, userID: String) async throws -> AuthenticatedUser {
        let row = try await database.sql.select()
            .columns(UserRecord.Columns.all.map { SQLColumn($0, table: "u") })
            .column(SQLColumn("revoked_at", table: "s"), as: "session_revoked_at")
            .from(SQLAlias(SQLIdentifier("kindred_sessions"), as: SQLIdentifier("s")))
            .join(SQLAlias(SQLIdentifier("kindred_users"), as: SQLIdentifier("u")),
                  on: SQLColumn("id", table: "u"), .equal, SQLColumn("user_id", table: "s"))
            .where(SQLColumn("id", table: "s"), .equal, SQLBind(sessionID))
            .first()
        guard let row, try row.decode(column: "session_revoked_at", as: Int64?.self) == nil else {
            throw KindredError.sessionRevoked
        }
        let user = try row.decode(model: UserRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
        guard user.id == userID else { throw KindredError.sessionRevoked }
        guard user.disabledAt == nil else { throw KindredError.accountDisabled }
        return AuthenticatedUser(user: user, sessionID: sessionID)
    }
}
