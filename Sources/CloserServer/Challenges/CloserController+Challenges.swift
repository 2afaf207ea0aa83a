import CloserAPI
import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// Connection challenges (docs/closer.md, "Connection challenges"): the catalog, joining,
/// the couple's instances and leaving. Marking a day is in `CloserController+ChallengeDays.swift`.
///
/// Every write locks the couple's row first (`FOR UPDATE` on PostgreSQL; SQLite's single writer
/// serializes write transactions), so two partners joining at once make one instance.
extension CloserController {
    /// The shortest time between two challenge pushes to the same partner of a couple.
    static let challengePushInterval: Int64 = 10 * 60 * 1000

    /// The catalog's metadata (no steps).
    func challengeCatalog() -> Components.Schemas.CloserChallengeList {
        .init(challenges: challenges.challenges.map {
            .init(id: $0.id, title: $0.title, description: $0.description, category: $0.category, isPremium: $0.isPremium, dayCount: $0.days.count)
        })
    }

    /// Starts an instance of `challengeID` for the caller's couple and tells the partner.
    /// - Throws: 404 `couple_not_found` / `challenge_not_found`, 403 `premium_required` (fails
    ///   closed: an entitlement that cannot be read counts as free), 409 `challenge_already_active`.
    func joinChallenge(
        _ user: AuthenticatedUser, coupleID: String, challengeID: String
    ) async throws -> Components.Schemas.CloserChallengeInstance {
        let callerID = user.user.id
        let couple = try await Self.couple(coupleID, member: callerID, on: database.sql)
        guard let challenge = challenges.byID[challengeID] else { throw KindredError.challengeNotFound }
        if challenge.isPremium {
            let premium = (try? await isPremium(couple)) ?? false
            guard premium else { throw KindredError.premiumRequired }
        }
        let now = clock.now()
        return try await events.publisher.transaction { tx in
            let sql = tx.sql
            let couple = try await Self.couple(coupleID, member: callerID, locking: true, on: sql)
            let active = try await sql.select().column("id").from("closer_challenge_instances")
                .where("couple_id", .equal, coupleID).where("active_key", .equal, challengeID).first()
            guard active == nil else { throw KindredError.challengeAlreadyActive }
            let instance = ChallengeInstanceRecord(challenge: challenge, coupleID: coupleID, startedBy: callerID, timeZone: couple.timeZone, now: now,
                                                   reminderHour: settings.challengeReminderHour)
            try await sql.insert(into: "closer_challenge_instances").columns(ChallengeInstanceRecord.columns + ["active_key", "day_count"])
                .values(
                    SQLBind(instance.id), SQLBind(coupleID), SQLBind(instance.challengeID), SQLBind(instance.title), SQLBind(instance.stepsJSON),
                    SQLBind(instance.status.rawValue), SQLBind(instance.startDate), SQLBind(instance.timeZone), SQLBind(callerID),
                    SQLBind(instance.endedBy), SQLBind(instance.remindAt), SQLBind(instance.createdAt), SQLBind(instance.updatedAt),
                    SQLBind(instance.completedAt), SQLBind(challengeID), SQLBind(instance.dayCount)
                ).run()
            try await challengeUpdate(
                "closer.challenge_joined", instance: instance, from: callerID, couple: couple,
                push: "Your partner started a challenge for you both: \(instance.title)", on: tx
            )
            return ChallengeInstanceState(instance: instance, done: []).document(members: couple.userIDs, now: now)
        }
    }

    /// The couple's instances: active first, newest first within each group.
    func challengeInstances(
        _ user: AuthenticatedUser, coupleID: String, limit: Int?
    ) async throws -> Components.Schemas.CloserChallengeInstanceList {
        let limit = try Self.pageLimit(limit)
        let sql = database.sql
        let couple = try await Self.couple(coupleID, member: user.user.id, on: sql)
        let rows = try await sql.select().columns(ChallengeInstanceRecord.columns).from("closer_challenge_instances")
            .where("couple_id", .equal, coupleID).orderBy("created_at", .descending).orderBy("id", .descending).all()
        let instances = try rows.map(ChallengeInstanceRecord.init(row:))
        let ordered = (instances.filter { $0.status == .active } + instances.filter { $0.status != .active }).prefix(limit)
        let now = clock.now()
        var documents: [Components.Schemas.CloserChallengeInstance] = []
        for instance in ordered {
            documents.append(try await Self.challengeState(instance, on: sql).document(members: couple.userIDs, now: now))
        }
        return .init(instances: documents)
    }

    /// One instance with both partners' progress.
    /// - Throws: 404 `couple_not_found` / `challenge_instance_not_found`.
    func challengeInstance(
        _ user: AuthenticatedUser, coupleID: String, instanceID: String
    ) async throws -> Components.Schemas.CloserChallengeInstance {
        let sql = database.sql
        let couple = try await Self.couple(coupleID, member: user.user.id, on: sql)
        let state = try await Self.challengeState(instanceID, coupleID: coupleID, on: sql)
        return state.document(members: couple.userIDs, now: clock.now())
    }

    /// Abandons an active instance for both partners and tells the other.
    /// - Throws: 404s, 409 `challenge_not_active`.
    func leaveChallenge(
        _ user: AuthenticatedUser, coupleID: String, instanceID: String
    ) async throws -> Components.Schemas.CloserChallengeInstance {
        let callerID = user.user.id
        let now = clock.now()
        return try await events.publisher.transaction { tx in
            let sql = tx.sql
            let couple = try await Self.couple(coupleID, member: callerID, locking: true, on: sql)
            var state = try await Self.challengeState(instanceID, coupleID: coupleID, on: sql)
            guard state.instance.status == .active else { throw KindredError.challengeNotActive }
            let nowMS = now.millisecondsSince1970
            try await sql.update("closer_challenge_instances").set("status", to: ChallengeInstanceRecord.Status.abandoned.rawValue)
                .set("active_key", to: SQLLiteral.null).set("remind_at", to: SQLLiteral.null).set("ended_by", to: callerID)
                .set("updated_at", to: nowMS).where("id", .equal, instanceID).run()
            state.instance.status = .abandoned
            state.instance.endedBy = callerID
            state.instance.remindAt = nil
            state.instance.updatedAt = nowMS
            try await challengeUpdate(
                "closer.challenge_left", instance: state.instance, from: callerID, couple: couple,
                push: "Your partner ended the challenge: \(state.instance.title)", on: tx
            )
            return state.document(members: couple.userIDs, now: now)
        }
    }

    /// The instance `instanceID` of the couple with its done days.
    /// - Throws: 404 `challenge_instance_not_found`.
    static func challengeState(_ instanceID: String, coupleID: String, on sql: any SQLDatabase) async throws -> ChallengeInstanceState {
        guard
            let row = try await sql.select().columns(ChallengeInstanceRecord.columns).from("closer_challenge_instances")
                .where("id", .equal, instanceID).where("couple_id", .equal, coupleID).first()
        else { throw KindredError.challengeInstanceNotFound }
        return try await challengeState(try ChallengeInstanceRecord(row: row), on: sql)
    }

    /// `instance` with its done days.
    static func challengeState(_ instance: ChallengeInstanceRecord, on sql: any SQLDatabase) async throws -> ChallengeInstanceState {
        let rows = try await sql.select().columns("user_id", "day").from("closer_challenge_steps").where("instance_id", .equal, instance.id)
            .orderBy("day").orderBy("user_id").all()
        let done = try rows.map { (userID: try $0.decode(column: "user_id", as: String.self), day: try $0.decode(column: "day", as: Int.self)) }
        return ChallengeInstanceState(instance: instance, done: done)
    }

    /// Publishes `type` on the couple's channel and pushes the partner of `from` (`challenge`,
    /// quiet hours and opt-outs applied by the outbox) unless they were pushed about a challenge
    /// less than `challengePushInterval` ago.
    func challengeUpdate(
        _ type: String, instance: ChallengeInstanceRecord, from callerID: String, couple: CoupleRecord, push: String?,
        day: Int? = nil, on tx: RealtimeTransaction
    ) async throws {
        let partnerID = couple.partner(of: callerID)
        var recipient: String?
        if push != nil {
            let last = try await tx.sql.select().column("pushed_at").from("closer_challenge_pushes")
                .where("couple_id", .equal, couple.id).where("user_id", .equal, partnerID).first()?.decode(column: "pushed_at", as: Int64.self)
            let now = nowMS
            if last.map({ now - $0 >= Self.challengePushInterval }) ?? true {
                recipient = partnerID
                try await tx.sql.insert(into: "closer_challenge_pushes").columns("couple_id", "user_id", "pushed_at")
                    .values(SQLBind(couple.id), SQLBind(partnerID), SQLBind(now))
                    .onConflict(with: ["couple_id", "user_id"]) { $0.set(excludedValueOf: "pushed_at") }.run()
            }
        }
        var data = ["instanceId": instance.id, "challengeId": instance.challengeID, "userId": callerID]
        if let day { data["day"] = String(day) }
        try await events.emit(
            .init(type: type, notification: .closerChallenge, title: "Closer", body: push ?? "", data: data),
            coupleID: couple.id, to: recipient, on: tx
        )
    }
}
