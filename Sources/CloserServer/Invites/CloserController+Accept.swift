import KindredServerCore
import Foundation
import CloserAPI
import KindredCrypto
import KindredStore
import SQLKit

/// Accepting an invite: the rate limit, the refusals, and the couple's creation.
extension CloserController {
    /// Accepts the invite `code` for the caller and creates the couple.
    func acceptInvite(
        _ user: AuthenticatedUser, code: String, verifier: String?
    ) async throws -> Components.Schemas.CloserAcceptedInvite {
        try AccountsController.requirePermanent(user)
        let userID = user.user.id
        try await recordAttempt(userID, kind: "accept", code: code, limit: settings.acceptAttemptsPerHour)
        let now = clock.now()
        let nowMS = now.millisecondsSince1970
        let settings = self.settings
        let defaultPack = catalog.defaultPackID
        let events = self.events
        let (couple, phrase) = try await events.publisher.transaction { tx in
            let sql = tx.sql
            guard let canonical = InviteRecord.canonical(code), let invite = try await InviteRecord.load(canonical, on: sql),
                invite.status != "pending"
            else { throw KindredError.inviteNotFound }
            if invite.status == "accepted" { throw KindredError.inviteUsed }
            if invite.expiresAt <= nowMS { throw KindredError.inviteExpired }
            if invite.inviterID == userID { throw KindredError.ownInvite }
            if try await Self.coupleOf(userID, on: sql) != nil { throw KindredError.alreadyPaired }
            if try await Self.coupleOf(invite.inviterID, on: sql) != nil { throw KindredError.inviterPaired }
            let version = invite.encryptionVersion ?? 2
            if version != 0 {
                guard let verifier else { throw KindredError.invalidInvite("verifier is required") }
                if let problem = CloserShapes.problem(verifier, .inviteVerifier, field: "verifier") { throw KindredError.invalidInvite(problem) }
                guard let stored = invite.verifier, InviteTransport.verify(presented: verifier, stored: stored) else {
                    throw KindredError.inviteVerifierMismatch
                }
            } else if !settings.legacyClients {
                throw KindredError.invalidInvite("this server no longer accepts unencrypted couples")
            }
            let coupleID = RandomID.make()
            // The claim: of two racing acceptors, only one changes the row.
            let claimed = try await sql.update("closer_invites")
                .set("status", to: "accepted").set("accepted_at", to: nowMS).set("couple_id", to: coupleID)
                .set("encrypted_phrase", to: SQLLiteral.null)
                .where("code", .equal, invite.code).where("status", .equal, "open")
                .returning("code").all()
            guard !claimed.isEmpty else { throw KindredError.inviteUsed }
            let schedule = CloserSchedule(
                timeZone: TimeZone(identifier: settings.defaultTimeZone) ?? TimeZone(identifier: "UTC") ?? .current,
                minuteOfDay: settings.assignmentMinute
            )
            let couple = CoupleRecord(
                id: coupleID, userA: invite.inviterID, userB: userID, inviteCode: invite.code, createdAt: nowMS,
                activePackID: defaultPack, timeZone: settings.defaultTimeZone, assignmentMinute: settings.assignmentMinute,
                nextAssignmentAt: schedule.next(after: now).date.millisecondsSince1970, encryptionVersion: version,
                wrappedCoupleKey: invite.wrappedCoupleKey, kdfSalt: invite.kdfSalt, kdfParams: invite.kdfParams
            )
            try await couple.insert(on: sql, now: nowMS)
            for (member, partner) in [(invite.inviterID, userID), (userID, invite.inviterID)] {
                try await sql.insert(into: "closer_members").columns("user_id", "couple_id", "partner_id", "joined_at")
                    .values(SQLBind(member), SQLBind(coupleID), SQLBind(partner), SQLBind(nowMS))
                    .ignoringConflicts().run()
            }
            // A concurrent accept may have paired either of them meanwhile: then nothing happened here.
            let members = try await sql.select().column("user_id").from("closer_members").where("couple_id", .equal, coupleID).all()
            guard members.count == 2 else { throw KindredError.alreadyPaired }
            try await events.emit(
                .init(
                    type: "closer.invite_accepted", notification: .closerInviteAccepted, title: "You're paired",
                    body: "Your partner accepted your invite.", data: ["userId": userID]
                ),
                coupleID: coupleID, to: invite.inviterID, on: tx
            )
            return (couple, invite.encryptedPhrase)
        }
        await membershipChanged(userID)
        await membershipChanged(couple.userA)
        return Components.Schemas.CloserAcceptedInvite(couple: try await document(couple), encryptedPhrase: phrase)
    }
}
