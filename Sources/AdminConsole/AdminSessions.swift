import KindredServerCore
import Crypto
import Foundation
import KindredCrypto
import KindredStore
import SQLKit

/// A signed-in operator's console session, as a request sees it.
struct AdminSession: Sendable, Equatable {
    /// The operator.
    var operatorID: String
    /// The operator's e-mail (shown in the header).
    var email: String
    /// The session's CSRF token: every form carries it, every POST must send it back.
    var csrfToken: String
    /// The stored hash of the session's cookie token (its key in the table).
    var tokenHash: String
    /// The notice a form's POST left for the next page (shown once), if any.
    var flash: String? = nil
    /// The operator's time zone: their own, or the console's default.
    var timeZone: AdminTimeZone = .utc
    /// Whether the operator chose `timeZone` (false: it is the console's default).
    var choseTimeZone: Bool = false
}

/// The console's server-side sessions: the cookie holds 32 random bytes (hex), the table their
/// SHA-256; a session ends at logout, after `idleTimeout` unused, or `sessionLifetime` after login.
struct AdminSessions: Sendable {
    let database: Database
    let clock: any WallClock
    let settings: AdminSettings

    /// The zone of operators who have not chosen one (`AdminSettings.defaultTimeZone`; UTC when
    /// the setting names no zone this system knows).
    var consoleTimeZone: AdminTimeZone { AdminTimeZone.stored(settings.defaultTimeZone) }

    /// A new random token: 32 bytes from the system's CSPRNG, hex.
    static func newToken() -> String { Hex.encode(SecureRandom.bytes(32)) }

    /// The stored form of a cookie token.
    static func hash(_ token: String) -> String { Hex.encode(SHA256.hash(data: Array(token.utf8))) }

    /// Starts a session for `operatorID`; also deletes every expired session.
    /// - Returns: the cookie token.
    func start(operatorID: String) async throws -> String {
        let token = Self.newToken()
        let now = clock.now().millisecondsSince1970
        let expires = now + settings.sessionLifetime.milliseconds
        try await database.transaction { sql in
            try await sql.delete(from: "kindred_admin_sessions").where("expires_at", .lessThanOrEqual, now).run()
            try await sql.insert(into: "kindred_admin_sessions")
                .columns("token_hash", "operator_id", "csrf_token", "created_at", "last_seen_at", "expires_at")
                .values(
                    SQLBind(Self.hash(token)), SQLBind(operatorID), SQLBind(Self.newToken()), SQLBind(now), SQLBind(now),
                    SQLBind(expires)
                )
                .run()
        }
        return token
    }

    /// The live session of a cookie token, or nil (unknown, expired, idle too long, or its
    /// operator disabled). Marks the session as used (at most once a minute).
    func resume(token: String) async throws -> AdminSession? {
        guard token.utf8.count == 64, token.utf8.allSatisfy({ Self.isHexDigit($0) }) else { return nil }
        let now = clock.now().millisecondsSince1970
        let hash = Self.hash(token)
        guard let row = try await database.sql.select()
            .column(SQLColumn("operator_id", table: "s")).column(SQLColumn("csrf_token", table: "s"))
            .column(SQLColumn("last_seen_at", table: "s")).column(SQLColumn("flash", table: "s"))
            .column(SQLColumn("email", table: "o")).column(SQLColumn("time_zone", table: "o"))
            .from(SQLAlias(SQLIdentifier("kindred_admin_sessions"), as: SQLIdentifier("s")))
            .join(
                SQLAlias(SQLIdentifier("kindred_admin_operators"), as: SQLIdentifier("o")), method: SQLJoinMethod.inner,
                on: SQLColumn("operator_id", table: "s"), .equal, SQLColumn("id", table: "o")
            )
            .where(SQLColumn("token_hash", table: "s"), .equal, SQLBind(hash))
            .where(SQLColumn("expires_at", table: "s"), .greaterThan, SQLBind(now))
            .where(SQLColumn("last_seen_at", table: "s"), .greaterThan, SQLBind(now - settings.idleTimeout.milliseconds))
            .where(SQLColumn("disabled_at", table: "o"), .is, SQLLiteral.null)
            .first()
        else { return nil }
        let lastSeen = try row.decode(column: "last_seen_at", as: Int64.self)
        if now - lastSeen >= 60_000 {
            try await database.sql.update("kindred_admin_sessions").set("last_seen_at", to: SQLBind(now))
                .where("token_hash", .equal, hash).run()
        }
        let chosen = try row.decode(column: "time_zone", as: String?.self).flatMap(AdminTimeZone.init(name:))
        return AdminSession(
            operatorID: try row.decode(column: "operator_id", as: String.self),
            email: try row.decode(column: "email", as: String.self),
            csrfToken: try row.decode(column: "csrf_token", as: String.self), tokenHash: hash,
            flash: try row.decode(column: "flash", as: String?.self),
            timeZone: chosen ?? consoleTimeZone, choseTimeZone: chosen != nil
        )
    }

    /// The longest flash notice kept (longer ones are cut, with an ellipsis).
    static let maxFlashLength = 2000

    /// Leaves `notice` for the next page of `session` (Post/Redirect/Get), replacing any earlier one.
    func setFlash(_ notice: String, for session: AdminSession) async throws {
        let text = notice.count > Self.maxFlashLength ? String(notice.prefix(Self.maxFlashLength - 1)) + "…" : notice
        try await database.sql.update("kindred_admin_sessions").set("flash", to: SQLBind(text))
            .where("token_hash", .equal, session.tokenHash).run()
    }

    /// The session's flash notice, cleared so that a reload does not show it again.
    func takeFlash(_ session: AdminSession) async throws -> String? {
        guard let flash = session.flash else { return nil }
        try await database.sql.update("kindred_admin_sessions").set("flash", to: SQLLiteral.null)
            .where("token_hash", .equal, session.tokenHash).run()
        return flash
    }

    /// Deletes at most `limit` sessions that have ended by `now`: past their lifetime, or unused
    /// for the idle timeout (the housekeeping job `admin.purge-sessions`).
    /// - Returns: how many were deleted.
    func purgeEnded(now: Date, limit: Int) async throws -> Int {
        let nowMs = now.millisecondsSince1970
        let ended = try await database.sql.select().column("token_hash").from("kindred_admin_sessions")
            .where("expires_at", .lessThanOrEqual, SQLBind(nowMs))
            .orWhere("last_seen_at", .lessThanOrEqual, SQLBind(nowMs - settings.idleTimeout.milliseconds))
            .limit(limit).all()
            .map { try $0.decode(column: "token_hash", as: String.self) }
        guard !ended.isEmpty else { return 0 }
        try await database.sql.delete(from: "kindred_admin_sessions").where("token_hash", .in, ended).run()
        return ended.count
    }

    /// Ends the session of a cookie token (logout).
    func end(token: String) async throws {
        try await database.sql.delete(from: "kindred_admin_sessions").where("token_hash", .equal, Self.hash(token)).run()
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}

/// Compares secrets in constant time (for the lengths given): CSRF tokens, never with `==`.
enum ConstantTime {
    /// Whether `a` and `b` are the same bytes; the time depends only on their lengths.
    static func equals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count, !x.isEmpty else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
