import Foundation
import KindredCrypto
import KindredServerCore
import KindredStore
import SoulMateAPI
import SQLKit

/// Identity keys (X25519 public keys with a version) and the partners' sealed coarse locations.
extension SoulMateController {
    struct KeyRecord: Sendable {
        var userID: String
        var publicKey: String
        var version: Int
        var updatedAt: Int64

        var api: Components.Schemas.SoulMateIdentityKey {
            .init(userId: userID, publicKey: publicKey, keyVersion: version, updatedAt: SoulMateController.date(updatedAt))
        }
    }

    static func identityKey(of userID: String, on sql: any SQLDatabase) async throws -> KeyRecord? {
        guard let row = try await sql.select().columns("public_key", "key_version", "updated_at").from("soulmate_identity_keys")
            .where("user_id", .equal, userID).first()
        else { return nil }
        return KeyRecord(
            userID: userID, publicKey: try row.decode(column: "public_key", as: String.self),
            version: try row.decode(column: "key_version", as: Int.self), updatedAt: try row.decode(column: "updated_at", as: Int64.self)
        )
    }

    /// Publishes the caller's key; a new key bumps the version and is announced to the partner.
    func publishKey(_ user: AuthenticatedUser, publicKey: String) async throws -> Components.Schemas.SoulMateIdentityKey {
        do {
            _ = try SoulMateIdentity.publicKey(fromBase64: publicKey)
        } catch {
            throw KindredError.invalidPublicKey("publicKey must be standard Base64 of a 32-byte X25519 public key (\(error))")
        }
        let now = nowMS
        let userID = user.id
        let events = events
        return try await events.publisher.transaction { tx in
            let sql = tx.sql
            if let current = try await Self.identityKey(of: userID, on: sql), current.publicKey == publicKey {
                return current.api
            }
            try await sql.insert(into: "soulmate_identity_keys").columns("user_id", "public_key", "key_version", "updated_at")
                .values(SQLBind(userID), SQLBind(publicKey), SQLBind(1), SQLBind(now))
                .onConflict(with: ["user_id"]) {
                    $0.set(excludedValueOf: "public_key").set(excludedValueOf: "updated_at")
                        .set("key_version", to: SQLRaw("soulmate_identity_keys.key_version + 1"))
                }
                .run()
            guard let stored = try await Self.identityKey(of: userID, on: sql) else { throw KindredError.noIdentityKey }
            if stored.version > 1, let member = try await Self.membership(of: userID, on: sql) {
                try await events.emit(
                    "soulmate.key_changed", data: ["userId": userID, "keyVersion": String(stored.version)],
                    to: [member.partnerID], on: tx
                )
            }
            return stored.api
        }
    }

    /// The caller's own key.
    func ownKey(_ user: AuthenticatedUser) async throws -> Components.Schemas.SoulMateIdentityKey {
        guard let key = try await Self.identityKey(of: user.id, on: database.sql) else { throw KindredError.noIdentityKey }
        return key.api
    }

    /// The partner's key, only while paired.
    func partnerKey(_ user: AuthenticatedUser) async throws -> Components.Schemas.SoulMateIdentityKey {
        let sql = database.sql
        guard let member = try await Self.membership(of: user.id, on: sql) else { throw KindredError.notPaired }
        guard let key = try await Self.identityKey(of: member.partnerID, on: sql) else { throw KindredError.partnerKeyMissing }
        return key.api
    }

    /// Stores the caller's sealed location for the partner.
    func putLocation(_ user: AuthenticatedUser, ciphertext: String) async throws -> Components.Schemas.SoulMateLocation {
        guard ciphertext.utf8.count <= 1024, let length = SoulMateInput.base64Length(ciphertext), length >= 28 else {
            throw KindredError.invalidLocation("ciphertext must be standard Base64 of at least 28 bytes, at most 1024 characters")
        }
        let now = nowMS
        let userID = user.id
        try await database.transaction { sql in
            guard try await Self.membership(of: userID, on: sql) != nil else { throw KindredError.notPaired }
            try await sql.insert(into: "soulmate_locations").columns("user_id", "ciphertext", "updated_at")
                .values(SQLBind(userID), SQLBind(ciphertext), SQLBind(now))
                .onConflict(with: ["user_id"]) { $0.set(excludedValueOf: "ciphertext").set(excludedValueOf: "updated_at") }
                .run()
        }
        return .init(userId: userID, ciphertext: ciphertext, updatedAt: Self.date(now))
    }

    /// The partner's sealed location.
    func partnerLocation(_ user: AuthenticatedUser) async throws -> Components.Schemas.SoulMateLocation {
        let sql = database.sql
        guard let member = try await Self.membership(of: user.id, on: sql) else { throw KindredError.notPaired }
        guard let row = try await sql.select().columns("ciphertext", "updated_at").from("soulmate_locations")
            .where("user_id", .equal, member.partnerID).first()
        else { throw KindredError.noLocation }
        return .init(
            userId: member.partnerID, ciphertext: try row.decode(column: "ciphertext", as: String.self),
            updatedAt: Self.date(try row.decode(column: "updated_at", as: Int64.self))
        )
    }
}
