import KindredServerCore
import Foundation
import CloserAPI
import KindredStore
import SQLKit

/// Reading a couple and the few changes its members may make (the seed's rules), and leaving.
extension CloserController {
    /// The caller's couple.
    func myCouple(_ user: AuthenticatedUser) async throws -> Components.Schemas.CloserCouple {
        guard let couple = try await Self.coupleOf(user.user.id, on: database.sql) else { throw KindredError.notPaired }
        return try await document(couple)
    }

    /// A couple the caller is a member of.
    func couple(_ user: AuthenticatedUser, id: String) async throws -> Components.Schemas.CloserCouple {
        try await document(try await Self.couple(id, member: user.user.id, on: database.sql))
    }

    /// Changes the couple's time zone or active pack.
    func updateSettings(
        _ user: AuthenticatedUser, id: String, settings update: Components.Schemas.CloserCoupleSettings
    ) async throws -> Components.Schemas.CloserCouple {
        let current = try await Self.couple(id, member: user.user.id, on: database.sql)
        if let zone = update.timeZone {
            guard zone.utf8.count <= 64, let timeZone = TimeZone(identifier: zone), timeZone.identifier == zone || zone == "UTC" else {
                throw KindredError.closerInvalidTimeZone
            }
        }
        if let packID = update.activePackId {
            guard let pack = catalog.packsByID[packID] else { throw KindredError.packNotFound }
            if pack.isPremium, !(try await isPremium(current)) { throw KindredError.premiumRequired }
        }
        let now = clock.now()
        let userID = user.user.id
        let couple = try await events.publisher.transaction { tx in
            let sql = tx.sql
            var couple = try await Self.couple(id, member: userID, on: sql)
            if let zone = update.timeZone, zone != couple.timeZone {
                couple.timeZone = zone
                // The next assignment follows the new zone; the current day stays as it is.
                let next = couple.schedule.next(after: now).date.millisecondsSince1970
                try await sql.update("closer_couples").set("time_zone", to: zone).set("next_assignment_at", to: next)
                    .where("id", .equal, id).run()
            }
            if let packID = update.activePackId, packID != couple.activePackID {
                try await Self.switchPack(&couple, to: packID, on: sql)
            }
            try await sql.update("closer_couples").set("updated_at", to: now.millisecondsSince1970).where("id", .equal, id).run()
            try await events.emit(.init(type: "closer.couple_updated", title: "", body: "", data: [:]), coupleID: id, to: nil, on: tx)
            return try await Self.couple(id, member: userID, on: sql)
        }
        return try await document(couple)
    }

    /// Saves the position in the old pack and restores the saved one of the new pack.
    private static func switchPack(_ couple: inout CoupleRecord, to packID: String, on sql: any SQLDatabase) async throws {
        if let old = couple.activePackID {
            try await sql.delete(from: "closer_pack_progress").where("couple_id", .equal, couple.id).where("pack_id", .equal, old).run()
            try await sql.insert(into: "closer_pack_progress").columns("couple_id", "pack_id", "pack_cursor")
                .values(SQLBind(couple.id), SQLBind(old), SQLBind(couple.packCursor)).run()
        }
        let saved = try await sql.select().column("pack_cursor").from("closer_pack_progress")
            .where("couple_id", .equal, couple.id).where("pack_id", .equal, packID).first()
        let cursor = try saved?.decode(column: "pack_cursor", as: Int.self) ?? 0
        try await sql.update("closer_couples").set("active_pack_id", to: packID).set("pack_cursor", to: cursor)
            .where("id", .equal, couple.id).run()
        couple.activePackID = packID
        couple.packCursor = cursor
    }

    /// `isUpdatingRecoveryWrap`: replaces the phrase-wrapped couple key.
    func putRecoveryWrap(
        _ user: AuthenticatedUser, id: String, wrap: Components.Schemas.CloserRecoveryWrap
    ) async throws -> Components.Schemas.CloserCouple {
        if let problem = CloserShapes.wrapProblem(wrappedCoupleKey: wrap.wrappedCoupleKey, kdfSalt: wrap.kdfSalt, kdfParams: wrap.kdfParams) {
            throw KindredError.invalidCoupleUpdate(problem)
        }
        return try await changeCouple(user, id: id) { couple, sql in
            guard couple.encryptionVersion != 0 else {
                throw KindredError.encryptionVersionConflict("this couple has no couple key yet; start the encryption migration")
            }
            try await sql.update("closer_couples").set("wrapped_couple_key", to: wrap.wrappedCoupleKey)
                .set("kdf_salt", to: wrap.kdfSalt).set("kdf_params", to: wrap.kdfParams).where("id", .equal, couple.id).run()
        }
    }

    /// `isStartingEncryptionMigration`: v0 (or v1) → v1 with an empty migration map and the wrap.
    func startMigration(
        _ user: AuthenticatedUser, id: String, wrap: Components.Schemas.CloserRecoveryWrap
    ) async throws -> Components.Schemas.CloserCouple {
        if let problem = CloserShapes.wrapProblem(wrappedCoupleKey: wrap.wrappedCoupleKey, kdfSalt: wrap.kdfSalt, kdfParams: wrap.kdfParams) {
            throw KindredError.invalidCoupleUpdate(problem)
        }
        return try await changeCouple(user, id: id) { couple, sql in
            guard couple.encryptionVersion < 2 else { throw KindredError.encryptionVersionConflict("this couple is already fully encrypted") }
            try await sql.update("closer_couples").set("encryption_version", to: 1).set("migration_users", to: "{}")
                .set("wrapped_couple_key", to: wrap.wrappedCoupleKey).set("kdf_salt", to: wrap.kdfSalt)
                .set("kdf_params", to: wrap.kdfParams).where("id", .equal, couple.id).run()
        }
    }

    /// `isCompletingOwnEncryptionMigration`: adds the caller to the map; both done → v2.
    func completeMigration(_ user: AuthenticatedUser, id: String) async throws -> Components.Schemas.CloserCouple {
        let userID = user.user.id
        return try await changeCouple(user, id: id) { couple, sql in
            guard couple.encryptionVersion == 1 else { throw KindredError.encryptionVersionConflict("no encryption migration is in progress") }
            var updated = couple
            updated.migrationUsers[userID] = true
            let done = couple.userIDs.allSatisfy { updated.migrationUsers[$0] == true }
            try await sql.update("closer_couples").set("migration_users", to: updated.migrationUsersJSON)
                .set("encryption_version", to: done ? 2 : 1).where("id", .equal, couple.id).run()
        }
    }

    /// Runs `change` on a member's couple in a transaction, announces `closer.couple_updated`, returns the result.
    private func changeCouple(
        _ user: AuthenticatedUser, id: String,
        _ change: @escaping @Sendable (CoupleRecord, any SQLDatabase) async throws -> Void
    ) async throws -> Components.Schemas.CloserCouple {
        let userID = user.user.id
        let now = nowMS
        let events = self.events
        let couple = try await events.publisher.transaction { tx in
            let couple = try await Self.couple(id, member: userID, on: tx.sql)
            try await change(couple, tx.sql)
            try await tx.sql.update("closer_couples").set("updated_at", to: now).where("id", .equal, id).run()
            try await events.emit(.init(type: "closer.couple_updated", title: "", body: "", data: [:]), coupleID: id, to: nil, on: tx)
            return try await Self.couple(id, member: userID, on: tx.sql)
        }
        return try await document(couple)
    }

    /// Leaves the couple: deletes it and all its content, unlinks both, tells the partner.
    func leave(_ user: AuthenticatedUser, id: String) async throws {
        try AccountsController.requirePermanent(user)
        let userID = user.user.id
        let events = self.events
        let partner = try await events.publisher.transaction { tx in
            let couple = try await Self.couple(id, member: userID, on: tx.sql)
            let partner = couple.partner(of: userID)
            // The event goes out first: the channel's readers are re-checked after the commit.
            try await events.emit(
                .init(
                    type: "closer.partner_left", notification: .closerPartnerLeft, title: "Your partner left",
                    body: "Your partner has left your couple on Closer.", data: ["userId": userID]
                ),
                coupleID: id, to: partner, on: tx
            )
            try await tx.sql.delete(from: "closer_couples").where("id", .equal, id).run()
            return partner
        }
        await membershipChanged(userID)
        await membershipChanged(partner)
    }
}
