import KindredServerCore
import Foundation
import CloserAPI
import KindredCrypto
import KindredStore
import SQLKit

/// Creating, reading, completing and cancelling invites (the inviter's side).
extension CloserController {
    /// Reserves a fresh code for the caller (cancelling its other unaccepted invites).
    func createInvite(_ user: AuthenticatedUser) async throws -> Components.Schemas.CloserInvite {
        try AccountsController.requirePermanent(user)
        let now = nowMS
        let expires = now + Int64(settings.inviteLifetime.components.seconds) * 1000
        let userID = user.user.id
        let invite = try await database.transaction { sql in
            if try await Self.coupleOf(userID, on: sql) != nil { throw KindredError.alreadyPaired }
            try await sql.delete(from: "closer_invites").where("user_id", .equal, userID).where("status", .notEqual, "accepted").run()
            for _ in 0..<16 {
                let code = InviteCode.generate()
                if let existing = try await InviteRecord.load(code, on: sql) {
                    // An expired, unaccepted invite frees its code; anything else is taken.
                    guard existing.expiresAt <= now, existing.status != "accepted" else { continue }
                    try await sql.delete(from: "closer_invites").where("code", .equal, code).run()
                }
                try await sql.insert(into: "closer_invites")
                    .columns("code", "user_id", "status", "created_at", "expires_at")
                    .values(SQLBind(code), SQLBind(userID), SQLBind("pending"), SQLBind(now), SQLBind(expires))
                    .ignoringConflicts().run()
                if let stored = try await InviteRecord.load(code, on: sql), stored.inviterID == userID, stored.createdAt == now {
                    // The seed's `notification_queue` entry for the inviter, in the same transaction.
                    try await events.outbox.enqueue(Self.inviteCreatedNotification(userID: userID, expiresAt: expires), on: sql)
                    return stored
                }
            }
            throw KindredError.internal
        }
        return invite.api(now: now)
    }

    /// The inviter's record of a new invite (no code in the payload: pushes carry no content).
    static func inviteCreatedNotification(userID: String, expiresAt: Int64) -> OutgoingNotification {
        OutgoingNotification(
            userID: userID, app: .closer, type: .closerInviteCreated, title: "Your invite is ready",
            body: "Share it with your partner; it is valid for 24 hours.",
            data: ["event": "closer.invite_created", "expiresAt": String(expiresAt)], collapseID: "closer.invite_created:\(userID)"
        )
    }

    /// The caller's invite.
    func invite(_ user: AuthenticatedUser, code: String) async throws -> Components.Schemas.CloserInvite {
        try await ownInvite(user, code: code, on: database.sql).api(now: nowMS)
    }

    /// Stores the invite's key material (all seven fields, or none for a legacy invite).
    func putInviteMaterial(
        _ user: AuthenticatedUser, code: String, material: Components.Schemas.CloserInviteMaterial
    ) async throws -> Components.Schemas.CloserInvite {
        let version = try validate(material)
        let now = nowMS
        let record = try await database.transaction { sql in
            let invite = try await ownInvite(user, code: code, on: sql)
            if invite.status == "accepted" { throw KindredError.inviteUsed }
            if invite.expiresAt <= now { throw KindredError.inviteExpired }
            try await sql.update("closer_invites")
                .set("status", to: "open").set("encryption_version", to: version)
                .set("wrapped_couple_key", to: material.wrappedCoupleKey).set("kdf_salt", to: material.kdfSalt)
                .set("kdf_params", to: material.kdfParams).set("encrypted_phrase", to: material.encryptedPhrase)
                .set("verifier", to: material.verifier).set("invite_kdf_salt", to: material.inviteKdfSalt)
                .set("invite_kdf_params", to: material.inviteKdfParams)
                .where("code", .equal, invite.code).run()
            return try await ownInvite(user, code: code, on: sql)
        }
        return record.api(now: now)
    }

    /// Cancels an unaccepted invite of the caller.
    func cancelInvite(_ user: AuthenticatedUser, code: String) async throws {
        try await database.transaction { sql in
            let invite = try await ownInvite(user, code: code, on: sql)
            if invite.status == "accepted" { throw KindredError.inviteUsed }
            try await sql.delete(from: "closer_invites").where("code", .equal, invite.code).run()
        }
    }

    /// The invite transport's salt and parameters, for an acceptor (rate-limited).
    func inviteParameters(_ user: AuthenticatedUser, code: String) async throws -> Components.Schemas.CloserInviteParameters {
        try AccountsController.requirePermanent(user)
        try await recordAttempt(user.user.id, kind: "lookup", code: code, limit: settings.parameterLookupsPerHour)
        guard let canonical = InviteRecord.canonical(code), let invite = try await InviteRecord.load(canonical, on: database.sql),
            invite.status != "pending"
        else { throw KindredError.inviteNotFound }
        if invite.expiresAt <= nowMS { throw KindredError.inviteExpired }
        if invite.status == "accepted" { throw KindredError.inviteUsed }
        return Components.Schemas.CloserInviteParameters(
            code: invite.code, encryptionVersion: invite.encryptionVersion == 0 ? ._0 : ._2,
            inviteKdfSalt: invite.inviteKdfSalt, inviteKdfParams: invite.inviteKdfParams,
            expiresAt: Date(millisecondsSince1970: invite.expiresAt)
        )
    }

    /// Records one attempt of `kind` for the caller, or throws 429 when the rolling hour is full.
    func recordAttempt(_ userID: String, kind: String, code: String, limit: Int) async throws {
        let now = nowMS
        let hourAgo = now - 3_600_000
        let retention = Int64(settings.attemptRetention.components.seconds) * 1000
        try await database.transaction { sql in
            // Count-then-insert must not interleave: on PostgreSQL, lock the user's row first so
            // concurrent attempts of one user are serialized (SQLite's transaction already holds
            // the write lock). Without it, 50 concurrent accepts all counted the same rows.
            if sql.dialect.locksSelectedRows {
                _ = try await sql.select().column("id").from("kindred_users").where("id", .equal, userID)
                    .for(.update).first()
            }
            let rows = try await sql.select().column("attempted_at").from("closer_invite_attempts")
                .where("user_id", .equal, userID).where("kind", .equal, kind).where("attempted_at", .greaterThan, hourAgo)
                .orderBy("attempted_at").all()
            if rows.count >= limit, let oldest = try rows.first?.decode(column: "attempted_at", as: Int64.self) {
                let seconds = max(1, Int((oldest + 3_600_000 - now + 999) / 1000))
                throw KindredError.rateLimited(retryAfterSeconds: seconds)
            }
            try await sql.insert(into: "closer_invite_attempts")
                .columns("id", "user_id", "kind", "code", "attempted_at", "expires_at")
                .values(
                    SQLBind(UUID().uuidString.lowercased()), SQLBind(userID), SQLBind(kind), SQLBind(String(code.prefix(6))),
                    SQLBind(now), SQLBind(now + retention)
                )
                .run()
        }
    }

    /// The caller's own invite by code (any case), or `invite_not_found`.
    func ownInvite(_ user: AuthenticatedUser, code: String, on sql: any SQLDatabase) async throws -> InviteRecord {
        guard let canonical = InviteRecord.canonical(code), let invite = try await InviteRecord.load(canonical, on: sql),
            invite.inviterID == user.user.id
        else { throw KindredError.inviteNotFound }
        return invite
    }

    /// Checks the material's shapes and returns the encryption version it makes.
    private func validate(_ m: Components.Schemas.CloserInviteMaterial) throws -> Int {
        let fields: [String?] = [m.wrappedCoupleKey, m.kdfSalt, m.kdfParams, m.encryptedPhrase, m.verifier, m.inviteKdfSalt, m.inviteKdfParams]
        if fields.allSatisfy({ $0 == nil }) {
            guard settings.legacyClients else {
                throw KindredError.invalidInvite("the key material is required (this server does not accept unencrypted couples)")
            }
            return 0
        }
        let names = ["wrappedCoupleKey", "kdfSalt", "kdfParams", "encryptedPhrase", "verifier", "inviteKdfSalt", "inviteKdfParams"]
        if let missing = zip(names, fields).first(where: { $0.1 == nil }) {
            throw KindredError.invalidInvite("\(missing.0) is required with the other key material")
        }
        let problem = CloserShapes.wrapProblem(wrappedCoupleKey: m.wrappedCoupleKey ?? "", kdfSalt: m.kdfSalt ?? "", kdfParams: m.kdfParams ?? "")
            ?? CloserShapes.problem(m.encryptedPhrase ?? "", .invitePhrase, field: "encryptedPhrase")
            ?? CloserShapes.problem(m.verifier ?? "", .inviteVerifier, field: "verifier")
            ?? CloserShapes.saltProblem(m.inviteKdfSalt ?? "").map { "inviteKdfSalt: \($0)" }
            ?? CloserShapes.paramsProblem(m.inviteKdfParams ?? "").map { "inviteKdfParams: \($0)" }
        if let problem { throw KindredError.invalidInvite(problem) }
        return 2
    }
}
