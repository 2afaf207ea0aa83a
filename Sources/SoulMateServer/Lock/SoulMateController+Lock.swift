import Foundation
import KindredServerCore
import KindredStore
import SoulMateAPI
import SQLKit

/// The single-device session lock (seed: `sessionLocks/{uid}`): acquired after login, refused
/// while another installation holds it, refreshed by the holder's heartbeat, released before
/// logout, and taken over with the password from a lost phone.
extension SoulMateController {
    struct LockRecord: Sendable {
        var installationID: String
        var platform: String
        var deviceName: String
        var appVersion: String
        var acquiredAt: Int64
        var updatedAt: Int64

        static let columns = "installation_id, platform, device_name, app_version, acquired_at, updated_at"

        init(installationID: String, platform: String, deviceName: String, appVersion: String, acquiredAt: Int64, updatedAt: Int64) {
            self.installationID = installationID
            self.platform = platform
            self.deviceName = deviceName
            self.appVersion = appVersion
            self.acquiredAt = acquiredAt
            self.updatedAt = updatedAt
        }

        init(row: any SQLRow) throws {
            installationID = try row.decode(column: "installation_id", as: String.self)
            platform = try row.decode(column: "platform", as: String.self)
            deviceName = try row.decode(column: "device_name", as: String.self)
            appVersion = try row.decode(column: "app_version", as: String.self)
            acquiredAt = try row.decode(column: "acquired_at", as: Int64.self)
            updatedAt = try row.decode(column: "updated_at", as: Int64.self)
        }

        var api: Components.Schemas.SoulMateSessionLock {
            .init(
                installationId: installationID, platform: platform, deviceName: deviceName, appVersion: appVersion,
                acquiredAt: SoulMateController.date(acquiredAt), updatedAt: SoulMateController.date(updatedAt)
            )
        }

        /// The refusal naming the holder.
        var refusal: KindredError {
            KindredError.sessionLocked(
                device: deviceName, lastSeen: ISO8601DateFormatter().string(from: SoulMateController.date(updatedAt))
            )
        }
    }

    static func lock(of userID: String, locking: Bool = false, on sql: any SQLDatabase) async throws -> LockRecord? {
        let statement = locking ? SoulMateQueries.sessionLockOfLocked : SoulMateQueries.sessionLockOf
        return try await sql.first(statement.binding(userID)).map(LockRecord.init(row:))
    }

    /// The validated body of an acquire or takeover.
    static func lockRequest(
        installationId: String, platform: String, deviceName: String, appVersion: String, now: Int64
    ) throws -> LockRecord {
        LockRecord(
            installationID: try SoulMateInput.installationID(installationId),
            platform: try SoulMateInput.label(platform, field: "platform", max: 32),
            deviceName: try SoulMateInput.label(deviceName, field: "deviceName", max: 100),
            appVersion: try SoulMateInput.label(appVersion, field: "appVersion", max: 32),
            acquiredAt: now, updatedAt: now
        )
    }

    /// The lock, or 404 `no_session_lock`.
    func sessionLock(_ user: AuthenticatedUser) async throws -> Components.Schemas.SoulMateSessionLock {
        guard let lock = try await Self.lock(of: user.id, on: database.sql) else { throw KindredError.noSessionLock }
        return lock.api
    }

    /// Acquires the lock, or refreshes it when this installation holds it already.
    func acquireLock(_ user: AuthenticatedUser, _ body: Components.Schemas.SoulMateSessionLockRequest) async throws
        -> Components.Schemas.SoulMateSessionLock
    {
        let now = nowMS
        let wanted = try Self.lockRequest(
            installationId: body.installationId, platform: body.platform, deviceName: body.deviceName,
            appVersion: body.appVersion, now: now
        )
        let userID = user.id
        return try await database.transaction { sql in
            if let held = try await Self.lock(of: userID, locking: true, on: sql) {
                guard held.installationID == wanted.installationID else { throw held.refusal }
                var wanted = wanted
                wanted.acquiredAt = held.acquiredAt
                try await sql.update("soulmate_session_locks")
                    .set("platform", to: wanted.platform).set("device_name", to: wanted.deviceName)
                    .set("app_version", to: wanted.appVersion).set("updated_at", to: now)
                    .where("user_id", .equal, userID).run()
                return wanted.api
            }
            // Two first acquires race on the primary key: the loser is told who won.
            try await sql.insert(into: "soulmate_session_locks")
                .columns("user_id", "installation_id", "platform", "device_name", "app_version", "acquired_at", "updated_at")
                .values(
                    SQLBind(userID), SQLBind(wanted.installationID), SQLBind(wanted.platform), SQLBind(wanted.deviceName),
                    SQLBind(wanted.appVersion), SQLBind(now), SQLBind(now)
                )
                .ignoringConflicts().run()
            guard let stored = try await Self.lock(of: userID, on: sql) else { throw KindredError.noSessionLock }
            guard stored.installationID == wanted.installationID else { throw stored.refusal }
            return stored.api
        }
    }

    /// Releases the lock held by `installationID` (nothing when nobody holds it).
    func releaseLock(_ user: AuthenticatedUser, installationID raw: String) async throws {
        let installationID = try SoulMateInput.installationID(raw)
        let userID = user.id
        try await database.transaction { sql in
            guard let held = try await Self.lock(of: userID, locking: true, on: sql) else { return }
            guard held.installationID == installationID else { throw held.refusal }
            try await sql.delete(from: "soulmate_session_locks").where("user_id", .equal, userID).run()
        }
    }

    /// Takes the lock over with the password: every other session of the account is revoked and
    /// the old installation is told it was signed out.
    func takeOver(_ user: AuthenticatedUser, _ body: Components.Schemas.SoulMateTakeover, scope: RequestScope) async throws
        -> Components.Schemas.SoulMateSessionLock
    {
        let now = nowMS
        let wanted = try Self.lockRequest(
            installationId: body.installationId, platform: body.platform, deviceName: body.deviceName,
            appVersion: body.appVersion, now: now
        )
        try await accounts.confirmPassword(user, password: body.password, scope: scope)
        let userID = user.id
        let events = events
        let lock = try await events.publisher.transaction { tx in
            let sql = tx.sql
            let previous = try await Self.lock(of: userID, locking: true, on: sql)
            try await sql.delete(from: "soulmate_session_locks").where("user_id", .equal, userID).run()
            try await sql.insert(into: "soulmate_session_locks")
                .columns("user_id", "installation_id", "platform", "device_name", "app_version", "acquired_at", "updated_at")
                .values(
                    SQLBind(userID), SQLBind(wanted.installationID), SQLBind(wanted.platform), SQLBind(wanted.deviceName),
                    SQLBind(wanted.appVersion), SQLBind(now), SQLBind(now)
                )
                .run()
            if let previous, previous.installationID != wanted.installationID {
                // Critical (account security): sent even in quiet hours. Both phones get it; the
                // one whose installation id is named signs out.
                try await events.emit(
                    "soulmate.signed_out",
                    data: ["installationId": previous.installationID, "byDevice": wanted.deviceName],
                    to: [userID],
                    push: .init(
                        type: .accountSecurity, title: "Signed out",
                        body: "Your SoulMate account was opened on another device.",
                        data: ["installationId": previous.installationID]
                    ),
                    pushTo: [userID], on: tx
                )
            }
            return wanted
        }
        try await accounts.revokeOtherSessions(of: user)
        return lock.api
    }
}
