import Foundation
import KindredServerCore
import KindredStore
import SQLKit
import StreakAPI

/// The StreakSync profile: the display name friends see. StreakSync keeps its own rather than the
/// core profile's `displayName`, so that the name shown to friends is one chosen for them, and the
/// profile row is the per-user row friendship changes lock.
extension StreakController {
    /// The caller's profile (no name until one is set).
    func profile(_ user: AuthenticatedUser) async throws -> Components.Schemas.StreakSyncProfile {
        let row = try await database.sql.select().columns("display_name", "updated_at").from("streaksync_profiles")
            .where("user_id", .equal, user.id).first()
        return .init(
            userId: user.id, displayName: try row?.decode(column: "display_name", as: String.self),
            updatedAt: try row.map { Self.date(try $0.decode(column: "updated_at", as: Int64.self)) }
        )
    }

    /// Sets the caller's display name; the first one also makes the caller a reader of their own scores.
    func setProfile(_ user: AuthenticatedUser, displayName raw: String) async throws -> Components.Schemas.StreakSyncProfile {
        guard let name = StreakInput.displayName(raw) else { throw KindredError.invalidDisplayName }
        let now = nowMS
        let userID = user.id
        try await database.transaction { sql in
            try await sql.insert(into: "streaksync_profiles").columns("user_id", "display_name", "updated_at")
                .values(SQLBind(userID), SQLBind(name), SQLBind(now))
                .onConflict(with: ["user_id"]) { $0.set(excludedValueOf: "display_name").set(excludedValueOf: "updated_at") }
                .run()
            try await sql.insert(into: "streaksync_score_readers").columns("reader_id", "publisher_id", "since")
                .values(SQLBind(userID), SQLBind(userID), SQLBind(now)).ignoringConflicts().run()
        }
        return .init(userId: userID, displayName: name, updatedAt: Self.date(now))
    }

    /// The caller's display name, or 422 `profile_incomplete`.
    static func requireProfile(_ userID: String, on sql: any SQLDatabase) async throws -> String {
        guard let name = try await sql.select().column("display_name").from("streaksync_profiles").where("user_id", .equal, userID)
            .first()?.decode(column: "display_name", as: String.self)
        else { throw KindredError.profileIncomplete }
        return name
    }

    /// The display names of `userIDs` that have one.
    static func names(of userIDs: [String], on sql: any SQLDatabase) async throws -> [String: String] {
        guard !userIDs.isEmpty else { return [:] }
        var names: [String: String] = [:]
        for row in try await sql.select().columns("user_id", "display_name").from("streaksync_profiles")
            .where("user_id", .in, Array(Set(userIDs))).all()
        {
            names[try row.decode(column: "user_id", as: String.self)] = try row.decode(column: "display_name", as: String.self)
        }
        return names
    }

    /// The API form of a person.
    static func person(_ id: String, names: [String: String]) -> Components.Schemas.StreakSyncPerson {
        .init(id: id, displayName: names[id])
    }
}
