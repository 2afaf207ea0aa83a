import KindredServerCore
import Foundation
import CloserAPI
import KindredCrypto
import KindredStore
import SQLKit

/// Device public keys (`pub:v1:`): each device publishes its own; only the user and the
/// current partner may read them.
extension CloserController {
    /// Creates or replaces the caller's device key; true when the device is new.
    func putDeviceKey(
        _ user: AuthenticatedUser, deviceID: String, upload: Components.Schemas.CloserDeviceKeyUpload
    ) async throws -> (Components.Schemas.CloserDeviceKey, Bool) {
        guard CloserShapes.isDeviceID(deviceID) else { throw KindredError.invalidDeviceKey("deviceId must be 1–64 of A-Z a-z 0-9 . _ -") }
        if let problem = CloserShapes.problem(upload.publicKey, .publicKey, field: "publicKey") { throw KindredError.invalidDeviceKey(problem) }
        do {
            _ = try CloserPublicKey.decode(upload.publicKey)
        } catch {
            throw KindredError.invalidDeviceKey("publicKey: not a usable ECIES public keyset")
        }
        let userID = user.user.id
        let now = nowMS
        let limit = settings.maxDevicesPerUser
        return try await database.transaction { sql in
            let existing = try await sql.select().column("created_at").from("closer_device_keys")
                .where("user_id", .equal, userID).where("device_id", .equal, deviceID).first()
            if let existing {
                try await sql.update("closer_device_keys").set("public_key", to: upload.publicKey)
                    .set("platform", to: upload.platform.rawValue).set("updated_at", to: now)
                    .where("user_id", .equal, userID).where("device_id", .equal, deviceID).run()
                let created = try existing.decode(column: "created_at", as: Int64.self)
                return (Self.deviceDocument(userID, deviceID, upload.publicKey, upload.platform.rawValue, created, now), false)
            }
            let count = try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("closer_device_keys")
                .where("user_id", .equal, userID).first()?.decode(column: "n", as: Int.self) ?? 0
            guard count < limit else { throw KindredError.tooManyDevices }
            try await sql.insert(into: "closer_device_keys")
                .columns("user_id", "device_id", "public_key", "platform", "created_at", "updated_at")
                .values(SQLBind(userID), SQLBind(deviceID), SQLBind(upload.publicKey), SQLBind(upload.platform.rawValue), SQLBind(now), SQLBind(now))
                .run()
            return (Self.deviceDocument(userID, deviceID, upload.publicKey, upload.platform.rawValue, now, now), true)
        }
    }

    /// Withdraws one of the caller's device keys.
    func deleteDeviceKey(_ user: AuthenticatedUser, deviceID: String) async throws {
        let userID = user.user.id
        try await database.transaction { sql in
            let found = try await sql.select().column("device_id").from("closer_device_keys")
                .where("user_id", .equal, userID).where("device_id", .equal, deviceID).first()
            guard found != nil else { throw KindredError.deviceNotFound }
            try await sql.delete(from: "closer_device_keys").where("user_id", .equal, userID).where("device_id", .equal, deviceID).run()
        }
    }

    /// A user's device keys, for the user and the current partner only.
    func deviceKeys(_ user: AuthenticatedUser, of userID: String) async throws -> Components.Schemas.CloserDeviceKeyList {
        let sql = database.sql
        if userID != user.user.id {
            let partner = try await sql.select().column("partner_id").from("closer_members").where("user_id", .equal, user.user.id).first()
            guard try partner?.decode(column: "partner_id", as: String.self) == userID else { throw KindredError.closerUserNotFound }
        }
        return .init(devices: try await Self.devices(of: userID, on: sql))
    }

    /// The device keys of `userID`, oldest first.
    static func devices(of userID: String, on sql: any SQLDatabase) async throws -> [Components.Schemas.CloserDeviceKey] {
        let rows = try await sql.select().columns("device_id", "public_key", "platform", "created_at", "updated_at")
            .from("closer_device_keys").where("user_id", .equal, userID).orderBy("created_at").orderBy("device_id").all()
        return try rows.map { row in
            deviceDocument(
                userID, try row.decode(column: "device_id", as: String.self), try row.decode(column: "public_key", as: String.self),
                try row.decode(column: "platform", as: String.self), try row.decode(column: "created_at", as: Int64.self),
                try row.decode(column: "updated_at", as: Int64.self)
            )
        }
    }

    private static func deviceDocument(
        _ userID: String, _ deviceID: String, _ key: String, _ platform: String, _ created: Int64, _ updated: Int64
    ) -> Components.Schemas.CloserDeviceKey {
        Components.Schemas.CloserDeviceKey(
            userId: userID, deviceId: deviceID, publicKey: key, platform: .init(rawValue: platform) ?? .linux,
            createdAt: Date(millisecondsSince1970: created), updatedAt: Date(millisecondsSince1970: updated)
        )
    }
}
