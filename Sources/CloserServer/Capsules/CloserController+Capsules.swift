import CloserAPI
import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// Memory lane: time capsules (the seed's `memorylane/`). A member seals a title and content,
/// both `enc:v1:` ciphertexts under the couple key, with an unlock time in the future. Both
/// members list every capsule's metadata (title included); the content is served only from the
/// unlock time on (409 `capsule_locked` before), so no device can open what it cannot fetch.
/// The author may delete a capsule while it is locked; once unlocked it belongs to both and is
/// kept. Changes are published on the couple's channel (`closer.capsule_created`,
/// `closer.capsule_deleted`; `closer.capsule_unlocked` from the unlock job).
extension CloserController {
    /// The longest content ciphertext.
    static let capsuleContentLimit = 65_536
    /// The longest title ciphertext.
    static let capsuleTitleLimit = 1_024
    /// The shortest lock.
    static let capsuleMinimumLock: TimeInterval = 60
    /// The longest lock (about 30 years).
    static let capsuleMaximumLock: TimeInterval = 30 * 366 * 86_400

    /// Seals a capsule.
    /// - Throws: 400 `invalid_capsule`, 413 `capsule_too_large`, 404 `couple_not_found`, 409
    ///   `capsule_limit_reached` when the couple already keeps `closer.capsulesPerCouple` capsules.
    func createCapsule(_ user: AuthenticatedUser, coupleID: String, body: Components.Schemas.CloserCapsuleCreate) async throws -> Components.Schemas.CloserCapsule {
        guard body.title.utf8.count <= Self.capsuleTitleLimit else { throw KindredError.capsuleTooLarge("title", limit: Self.capsuleTitleLimit) }
        guard body.content.utf8.count <= Self.capsuleContentLimit else {
            throw KindredError.capsuleTooLarge("content", limit: Self.capsuleContentLimit)
        }
        if let problem = CloserShapes.problem(body.title, .ciphertext, field: "title") ?? CloserShapes.problem(body.content, .ciphertext, field: "content") {
            throw KindredError.invalidCapsule(problem)
        }
        let now = clock.now()
        let lock = body.unlockAt.timeIntervalSince(now)
        guard lock >= Self.capsuleMinimumLock else { throw KindredError.invalidCapsule("unlockAt must be at least a minute in the future") }
        guard lock <= Self.capsuleMaximumLock else { throw KindredError.invalidCapsule("unlockAt must be within 30 years") }
        let callerID = user.user.id
        let capsule = CapsuleRecord(
            id: RandomID.make(), coupleID: coupleID, createdBy: callerID, title: body.title, content: body.content,
            unlockAt: body.unlockAt.millisecondsSince1970, createdAt: now.millisecondsSince1970
        )
        let events = self.events
        try await events.publisher.transaction { tx in
            // The couple row is locked, so two racing creations cannot both pass the cap.
            let couple = try await Self.couple(coupleID, member: callerID, locking: true, on: tx.sql)
            let limit = settings.capsulesPerCouple
            let kept = try await tx.sql.first(CloserQueries.capsuleCount.binding(coupleID))?
                .decode(column: "n", as: Int.self) ?? 0
            guard kept < limit else { throw KindredError.capsuleLimitReached(limit) }
            try await tx.sql.insert(into: "closer_capsules").columns(CapsuleRecord.columns + ["pending_unlock_at"])
                .values(
                    SQLBind(capsule.id), SQLBind(coupleID), SQLBind(callerID), SQLBind(capsule.title), SQLBind(capsule.content),
                    SQLBind(capsule.unlockAt), SQLBind(capsule.unlockedAt), SQLBind(capsule.createdAt), SQLBind(capsule.unlockAt)
                ).run()
            try await events.emit(
                .init(
                    type: "closer.capsule_created", notification: .closerCapsule, title: "A time capsule for you two",
                    body: "Your partner sealed a memory. It opens on its day.", data: ["capsuleId": capsule.id, "userId": callerID]
                ),
                coupleID: coupleID, to: couple.partner(of: callerID), on: tx
            )
        }
        return capsule.document(nowMS: now.millisecondsSince1970)
    }

    /// Every capsule of the couple, soonest unlock first; content only for unlocked ones.
    /// - Throws: 404 `couple_not_found`.
    func capsules(_ user: AuthenticatedUser, coupleID: String) async throws -> Components.Schemas.CloserCapsuleList {
        let sql = database.sql
        _ = try await Self.couple(coupleID, member: user.user.id, on: sql)
        let nowMS = self.nowMS
        let records = try await sql.select().columns(CapsuleRecord.columns).from("closer_capsules").where("couple_id", .equal, coupleID)
            .orderBy("unlock_at").orderBy("id").all().map(CapsuleRecord.init(row:))
        return .init(capsules: records.map { $0.document(nowMS: nowMS) })
    }

    /// One unlocked capsule with its content.
    /// - Throws: 409 `capsule_locked`, 404 `capsule_not_found` / `couple_not_found`.
    func openCapsule(_ user: AuthenticatedUser, coupleID: String, capsuleID: String) async throws -> Components.Schemas.CloserCapsule {
        let sql = database.sql
        _ = try await Self.couple(coupleID, member: user.user.id, on: sql)
        guard let record = try await Self.capsule(capsuleID, coupleID: coupleID, on: sql) else { throw KindredError.capsuleNotFound }
        let nowMS = self.nowMS
        guard !record.isLocked(at: nowMS) else {
            throw KindredError.capsuleLocked(until: Date(millisecondsSince1970: record.unlockAt).formatted(.iso8601))
        }
        return record.document(nowMS: nowMS)
    }

    /// Deletes the caller's own capsule while it is locked.
    /// - Throws: 403 `not_owner`, 409 `capsule_unlocked`, 404 `capsule_not_found` / `couple_not_found`.
    func deleteCapsule(_ user: AuthenticatedUser, coupleID: String, capsuleID: String) async throws {
        let callerID = user.user.id
        let nowMS = self.nowMS
        let events = self.events
        try await events.publisher.transaction { tx in
            let sql = tx.sql
            _ = try await Self.couple(coupleID, member: callerID, on: sql)
            guard let record = try await Self.capsule(capsuleID, coupleID: coupleID, on: sql) else { throw KindredError.capsuleNotFound }
            guard record.createdBy == callerID else { throw KindredError.notOwner }
            guard record.isLocked(at: nowMS) else { throw KindredError.capsuleUnlocked }
            try await sql.delete(from: "closer_capsules").where("id", .equal, capsuleID).run()
            try await events.emit(
                .init(type: "closer.capsule_deleted", notification: nil, title: "", body: "", data: ["capsuleId": capsuleID, "userId": callerID]),
                coupleID: coupleID, to: nil, on: tx
            )
        }
    }

    /// The capsule `id` of the couple, if any.
    static func capsule(_ id: String, coupleID: String, on sql: any SQLDatabase) async throws -> CapsuleRecord? {
        try await sql.select().columns(CapsuleRecord.columns).from("closer_capsules").where("id", .equal, id)
            .where("couple_id", .equal, coupleID).first().map(CapsuleRecord.init(row:))
    }
}
