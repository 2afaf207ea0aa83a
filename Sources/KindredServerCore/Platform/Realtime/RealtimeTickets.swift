import Crypto
import Foundation
import KindredCrypto
import KindredStore
import SQLKit

/// Short-lived, single-use tickets that stand for a session on a WebSocket upgrade, for
/// clients that cannot set an `Authorization` header (browsers).
///
/// A ticket is 32 random bytes (43 base64url characters); only its SHA-256 is stored, in the
/// database so that any replica accepts it. Using it deletes it.
struct RealtimeTickets: Sendable {
    let database: Database
    let clock: any WallClock
    let lifetime: Duration

    /// Issues a ticket for the session.
    /// - Returns: the ticket.
    func issue(userID: String, sessionID: String, app: AppID) async throws -> String {
        let ticket = Base64.encode(SecureRandom.bytes(32), alphabet: .urlSafeNoPadding)
        try await database.sql.insert(into: "kindred_realtime_tickets")
            .columns("ticket_hash", "user_id", "session_id", "app", "expires_at")
            .values(
                SQLBind(Self.hash(ticket)), SQLBind(userID), SQLBind(sessionID), SQLBind(app.rawValue),
                SQLBind(clock.now().addingTimeInterval(lifetime.timeInterval).millisecondsSince1970)
            )
            .run()
        return ticket
    }

    /// Uses a ticket up: deletes it and returns whom it stands for.
    /// - Throws: `invalidTicket` when it is malformed, unknown, used or expired.
    func redeem(_ ticket: String) async throws -> RealtimeIdentity {
        guard ticket.utf8.count == 43 else { throw KindredError.invalidTicket }
        let row = try await database.sql.raw("""
            DELETE FROM kindred_realtime_tickets WHERE ticket_hash = \(bind: Self.hash(ticket))
            RETURNING user_id, session_id, app, expires_at
            """).first()
        return try identity(of: row)
    }

    /// Whom a ticket stands for, without using it up (for the non-upgrade answer).
    /// - Throws: `invalidTicket`.
    func peek(_ ticket: String) async throws -> RealtimeIdentity {
        guard ticket.utf8.count == 43 else { throw KindredError.invalidTicket }
        let row = try await database.sql.select().columns("user_id", "session_id", "app", "expires_at")
            .from("kindred_realtime_tickets").where("ticket_hash", .equal, Self.hash(ticket)).first()
        return try identity(of: row)
    }

    private func identity(of row: (any SQLRow)?) throws -> RealtimeIdentity {
        guard let row, try row.decode(column: "expires_at", as: Int64.self) > clock.now().millisecondsSince1970,
            let app = AppID(rawValue: try row.decode(column: "app", as: String.self))
        else { throw KindredError.invalidTicket }
        return RealtimeIdentity(
            userID: try row.decode(column: "user_id", as: String.self),
            sessionID: try row.decode(column: "session_id", as: String.self), app: app
        )
    }

    /// The stored form: lower-case hex SHA-256.
    static func hash(_ ticket: String) -> String {
        Hex.encode(SHA256.hash(data: Array(ticket.utf8)))
    }
}
