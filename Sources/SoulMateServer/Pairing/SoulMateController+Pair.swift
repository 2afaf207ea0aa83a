import Foundation
import KindredServerCore
import KindredStore
import SoulMateAPI
import SQLKit

/// The pair and unpairing with consent. Ending a pair deletes, in the same transaction, every
/// envelope between the two, their sealed locations and the pair's rows, and tells both phones
/// to wipe the conversation.
extension SoulMateController {
    struct UnpairRecord: Sendable {
        var id: String
        var pairID: String
        var requesterID: String
        var status: String
        var createdAt: Int64
        var respondedAt: Int64?

        static let columns = "id, pair_id, requester_id, status, created_at, responded_at"

        init(row: any SQLRow) throws {
            id = try row.decode(column: "id", as: String.self)
            pairID = try row.decode(column: "pair_id", as: String.self)
            requesterID = try row.decode(column: "requester_id", as: String.self)
            status = try row.decode(column: "status", as: String.self)
            createdAt = try row.decode(column: "created_at", as: Int64.self)
            respondedAt = try row.decode(column: "responded_at", as: Int64?.self)
        }

        init(id: String, pairID: String, requesterID: String, createdAt: Int64) {
            self.id = id
            self.pairID = pairID
            self.requesterID = requesterID
            status = "pending"
            self.createdAt = createdAt
        }
    }

    func document(_ request: UnpairRecord) -> Components.Schemas.SoulMateUnpairRequest {
        .init(
            id: request.id, requesterId: request.requesterID, status: .init(rawValue: request.status) ?? .pending,
            createdAt: Self.date(request.createdAt),
            canLeaveAt: Self.date(request.createdAt + Int64(settings.unpairGrace.components.seconds) * 1000),
            respondedAt: Self.date(request.respondedAt)
        )
    }

    /// The caller's pair, or 404 `not_paired`.
    func pair(_ user: AuthenticatedUser, knownPartner: String? = nil) async throws -> Components.Schemas.SoulMatePair {
        let sql = database.sql
        guard let member = try await Self.membership(of: user.id, on: sql) else { throw KindredError.notPaired }
        let names = try await accounts.names(of: [member.partnerID])
        let key = try await Self.identityKey(of: member.partnerID, on: sql)
        let unpair = try await sql.first(SoulMateQueries.pendingUnpair.binding(member.pairID)).map(UnpairRecord.init(row:))
        return .init(
            id: member.pairID, partner: person(member.partnerID, names: names), since: Self.date(member.joinedAt),
            partnerKey: key?.api, unpairRequest: unpair.map(document)
        )
    }

    /// Asks the partner to unpair.
    func createUnpairRequest(_ user: AuthenticatedUser) async throws -> Components.Schemas.SoulMateUnpairRequest {
        let now = nowMS
        let userID = user.id
        let events = events
        let record = try await events.publisher.transaction { tx in
            let sql = tx.sql
            guard let member = try await Self.membership(of: userID, locking: true, on: sql) else { throw KindredError.notPaired }
            if try await sql.select().column("id").from("soulmate_unpair_requests").where("pair_id", .equal, member.pairID)
                .where("status", .equal, "pending").first() != nil
            {
                throw KindredError.unpairRequestExists
            }
            let request = UnpairRecord(id: RandomID.make(), pairID: member.pairID, requesterID: userID, createdAt: now)
            try await sql.insert(into: "soulmate_unpair_requests")
                .columns("id", "pair_id", "requester_id", "status", "created_at")
                .values(SQLBind(request.id), SQLBind(member.pairID), SQLBind(userID), SQLBind("pending"), SQLBind(now)).run()
            try await events.emit(
                "soulmate.unpair_request", data: ["requestId": request.id, "pairId": member.pairID],
                to: [member.partnerID, userID],
                push: .init(type: .soulmatePairing, title: "SoulMate", body: "Your partner asked to unpair.", data: ["requestId": request.id]),
                pushTo: [member.partnerID], on: tx
            )
            return request
        }
        return document(record)
    }

    /// What one caller does to an unpair request.
    enum UnpairAction: String { case accept, reject, cancel, leave }

    /// Answers an unpair request: the partner accepts or rejects, the requester cancels, or
    /// leaves alone once the grace period has passed.
    func answerUnpair(_ user: AuthenticatedUser, id: String, _ action: UnpairAction) async throws -> Components.Schemas.SoulMateUnpairRequest {
        let now = nowMS
        let userID = user.id
        let grace = Int64(settings.unpairGrace.components.seconds) * 1000
        let events = events
        let record = try await events.publisher.transaction { tx in
            let sql = tx.sql
            guard SoulMateInput.isID(id), let member = try await Self.membership(of: userID, locking: true, on: sql),
                  var request = try await sql.first(SoulMateQueries.unpairRequest.binding(id, member.pairID)).map(UnpairRecord.init(row:))
            else { throw KindredError.unpairRequestNotFound }
            switch action {
            case .accept, .reject: guard request.requesterID != userID else { throw KindredError.notRecipient }
            case .cancel, .leave: guard request.requesterID == userID else { throw KindredError.notRequester }
            }
            guard request.status == "pending" else { throw KindredError.unpairRequestClosed }
            if action == .leave, now < request.createdAt + grace {
                throw KindredError.unpairNotDue(ISO8601DateFormatter().string(from: Self.date(request.createdAt + grace)))
            }
            request.status = switch action {
            case .accept: "accepted"
            case .reject: "rejected"
            case .cancel: "cancelled"
            case .leave: "left"
            }
            request.respondedAt = now
            switch action {
            case .accept, .leave:
                try await self.endPair(member, userID: userID, requestID: request.id, on: tx)
            case .reject, .cancel:
                try await sql.update("soulmate_unpair_requests").set("status", to: request.status).set("responded_at", to: now)
                    .where("id", .equal, request.id).run()
                try await events.emit(
                    "soulmate.unpair_request_updated", data: ["requestId": request.id, "status": request.status],
                    to: [member.partnerID, userID], on: tx
                )
            }
            return request
        }
        return document(record)
    }

    /// Ends the pair of `member` (the caller) now.
    private func endPair(_ member: Membership, userID: String, requestID: String, on tx: RealtimeTransaction) async throws {
        let sql = tx.sql
        let users = [userID, member.partnerID]
        let pushes = try await sql.select().column("notification_id").from("soulmate_envelopes")
            .where("sender_id", .in, users).where("recipient_id", .in, users)
            .where("notification_id", .isNot, SQLLiteral.null).all()
            .map { try $0.decode(column: "notification_id", as: String.self) }
        try await NotificationOutbox.redactData(of: pushes, on: sql)
        try await sql.delete(from: "soulmate_envelopes").where("sender_id", .in, users).where("recipient_id", .in, users).run()
        try await sql.delete(from: "soulmate_locations").where("user_id", .in, users).run()
        // Members and unpair requests go with the pair (ON DELETE CASCADE).
        try await sql.delete(from: "soulmate_pairs").where("id", .equal, member.pairID).run()
        try await events.emit(
            "soulmate.unpaired", data: ["pairId": member.pairID, "requestId": requestID], to: users,
            push: .init(
                type: .soulmatePairing, title: "SoulMate", body: "You are no longer paired.",
                data: ["pairId": member.pairID], collapseID: "soulmate.unpaired:\(member.pairID)"
            ),
            pushTo: users, on: tx
        )
    }
}
