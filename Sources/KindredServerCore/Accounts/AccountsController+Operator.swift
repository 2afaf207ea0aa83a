import Foundation
import KindredStore
import SQLKit

/// What an operator does to an account from the console: revoke sessions and delete, through
/// the same code paths the account's owner uses (`revoke`, `delete`).
extension AccountsController {
    /// Revokes one live session of `userID`: its tokens stop working, its realtime connections close.
    /// - Returns: false when the account has no such live session.
    package func operatorRevokeSession(userID: String, sessionID: String) async throws -> Bool {
        let found = try await database.sql.select().column("id").from("kindred_sessions")
            .where("id", .equal, sessionID).where("user_id", .equal, userID)
            .where("revoked_at", .is, SQLLiteral.null).first()
        guard found != nil else { return false }
        try await tokens.revoke(sessionID: sessionID)
        return true
    }

    /// Revokes every live session of `userID`.
    /// - Returns: how many sessions were revoked.
    package func operatorRevokeAllSessions(userID: String) async throws -> Int {
        let ids = try await database.sql.select().column("id").from("kindred_sessions")
            .where("user_id", .equal, userID).where("revoked_at", .is, SQLLiteral.null).all()
            .map { try $0.decode(column: "id", as: String.self) }
        for id in ids { try await tokens.revoke(sessionID: id) }
        return ids.count
    }

    /// Deletes the account and everything every domain holds for it (`delete`, as the owner's
    /// own deletion does).
    /// - Returns: false when there is no such account.
    package func operatorDelete(userID: String) async throws -> Bool {
        guard let user = try await store.user(id: userID) else { return false }
        try await delete(AuthenticatedUser(user: user, sessionID: ""))
        return true
    }

    /// The account's export as its owner gets it from `GET /v1/me/export` (every domain's rows,
    /// secrets left out), as pretty-printed JSON with sorted keys and ISO 8601 dates.
    /// - Returns: nil when there is no such account.
    package func operatorExport(userID: String) async throws -> Data? {
        guard let user = try await store.user(id: userID) else { return nil }
        let export = try await export(AuthenticatedUser(user: user, sessionID: ""))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(export)
    }
}
