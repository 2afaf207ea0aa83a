import Foundation
import KindredServerCore
import KindredStore
import SoulMateAPI
import SQLKit

/// Pair requests: sent to a code, accepted only by the recipient. A pair exists only after
/// consent, and a user is in at most one pair.
extension SoulMateController {
    struct RequestRecord: Sendable {
        var id: String
        var fromUserID: String
        var toUserID: String
        var status: String
        var createdAt: Int64
        var respondedAt: Int64?

        static let columns = "id, from_user_id, to_user_id, status, created_at, responded_at"

        init(row: any SQLRow) throws {
            id = try row.decode(column: "id", as: String.self)
            fromUserID = try row.decode(column: "from_user_id", as: String.self)
            toUserID = try row.decode(column: "to_user_id", as: String.self)
            status = try row.decode(column: "status", as: String.self)
            createdAt = try row.decode(column: "created_at", as: Int64.self)
            respondedAt = try row.decode(column: "responded_at", as: Int64?.self)
        }

        init(id: String, from: String, to: String, status: String, createdAt: Int64) {
            self.id = id
            fromUserID = from
            toUserID = to
            self.status = status
            self.createdAt = createdAt
        }
    }

    static func request(_ id: String, locking: Bool = false, on sql: any SQLDatabase) async throws -> RequestRecord? {
        guard SoulMateInput.isID(id) else { return nil }
        let statement = locking ? SoulMateQueries.requestByIDLocked : SoulMateQueries.requestByID
        return try await sql.first(statement.binding(id)).map(RequestRecord.init(row:))
    }

    func document(_ request: RequestRecord, names: [String: PersonName]) -> Components.Schemas.SoulMatePairRequest {
        .init(
            id: request.id,
            status: .init(rawValue: request.status) ?? .pending,
            from: person(request.fromUserID, names: names), to: person(request.toUserID, names: names),
            createdAt: Self.date(request.createdAt), respondedAt: Self.date(request.respondedAt)
        )
    }

    /// Sends a pair request to the owner of `code` (or accepts theirs, when they asked first).
    func createPairRequest(_ user: AuthenticatedUser, code raw: String, scope: RequestScope) async throws
        -> Components.Schemas.SoulMatePairRequest
    {
        let userID = user.id
        let names = try await accounts.names(of: [userID])
        guard names[userID]?.isComplete == true else { throw KindredError.profileIncomplete }
        let code = try Self.normalizedCode(raw)
        // Every look-up counts, found or not: the code space is a million.
        var keys = [("soulmate-code-lookup:user:\(userID)", settings.codeLookupsPerUserPerHour)]
        if !accounts.isExempt(scope) { keys.append(("soulmate-code-lookup:address:\(scope.addressKey)", settings.codeLookupsPerAddressPerHour)) }
        for (key, limit) in keys {
            if case .retryAfter(let seconds) = try await rateLimiter.check(key: key, limit: limit, window: .seconds(3600)) {
                throw KindredError.rateLimited(retryAfterSeconds: seconds)
            }
        }
        let now = nowMS
        let events = events
        let record: RequestRecord = try await events.publisher.transaction { tx in
            let sql = tx.sql
            guard let owner = try await sql.select().column("user_id").from("soulmate_pair_codes").where("code", .equal, code)
                .first()?.decode(column: "user_id", as: String.self)
            else { throw KindredError.pairCodeNotFound }
            guard owner != userID else { throw KindredError.ownPairCode }
            if try await Self.membership(of: userID, on: sql) != nil { throw KindredError.alreadyPaired }
            if try await Self.membership(of: owner, on: sql) != nil { throw KindredError.partnerAlreadyPaired }
            let pending = try await sql.all(SoulMateQueries.pendingBetween.binding(userID, owner, owner, userID)).map(RequestRecord.init(row:))
            if pending.contains(where: { $0.fromUserID == userID }) { throw KindredError.pairRequestExists }
            if let theirs = pending.first(where: { $0.fromUserID == owner }) {
                // They asked first: asking back is consent, so theirs is accepted now.
                return try await self.accept(theirs, now: now, on: tx)
            }
            let request = RequestRecord(id: RandomID.make(), from: userID, to: owner, status: "pending", createdAt: now)
            try await sql.insert(into: "soulmate_pair_requests")
                .columns("id", "from_user_id", "to_user_id", "status", "created_at")
                .values(SQLBind(request.id), SQLBind(userID), SQLBind(owner), SQLBind("pending"), SQLBind(now))
                .run()
            try await events.emit(
                "soulmate.pair_request", data: ["requestId": request.id, "fromUserId": userID], to: [owner, userID],
                push: .init(type: .soulmatePairing, title: "SoulMate", body: "You have a new pair request.", data: ["requestId": request.id]),
                pushTo: [owner], on: tx
            )
            return request
        }
        return document(record, names: try await accounts.names(of: [record.fromUserID, record.toUserID]))
    }

    /// The caller's pending requests and the badge count.
    func pairRequests(_ user: AuthenticatedUser) async throws -> Components.Schemas.SoulMatePairRequestBoxes {
        let rows = try await database.sql.all(SoulMateQueries.pendingOf.binding(user.id, user.id)).map(RequestRecord.init(row:))
        let names = try await accounts.names(of: rows.flatMap { [$0.fromUserID, $0.toUserID] })
        let incoming = rows.filter { $0.toUserID == user.id }.map { document($0, names: names) }
        let outgoing = rows.filter { $0.fromUserID == user.id }.map { document($0, names: names) }
        return .init(incoming: incoming, outgoing: outgoing, pendingCount: incoming.count)
    }

    /// The number of incoming pending requests (the badge).
    static func pendingCount(_ userID: String, on sql: any SQLDatabase) async throws -> Int {
        try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("soulmate_pair_requests")
            .where("to_user_id", .equal, userID).where("status", .equal, "pending").first()?
            .decode(column: "n", as: Int.self) ?? 0
    }

    /// Accepts a request addressed to the caller: the pair starts.
    func acceptPairRequest(_ user: AuthenticatedUser, id: String) async throws -> Components.Schemas.SoulMatePair {
        let now = nowMS
        let userID = user.id
        let record = try await events.publisher.transaction { tx in
            let request = try await self.open(id, by: userID, as: .recipient, on: tx.sql)
            return try await self.accept(request, now: now, on: tx)
        }
        return try await pair(user, knownPartner: record.fromUserID)
    }

    /// Rejects (recipient) or cancels (sender) a pending request.
    func closePairRequest(_ user: AuthenticatedUser, id: String, rejecting: Bool) async throws -> Components.Schemas.SoulMatePairRequest {
        let now = nowMS
        let userID = user.id
        let events = events
        var record = try await events.publisher.transaction { tx in
            var request = try await self.open(id, by: userID, as: rejecting ? .recipient : .sender, on: tx.sql)
            request.status = rejecting ? "rejected" : "cancelled"
            request.respondedAt = now
            try await tx.sql.update("soulmate_pair_requests").set("status", to: request.status).set("responded_at", to: now)
                .where("id", .equal, request.id).run()
            let other = rejecting ? request.fromUserID : request.toUserID
            try await events.emit(
                "soulmate.pair_request_updated", data: ["requestId": request.id, "status": request.status],
                to: [other, userID], on: tx
            )
            return request
        }
        record.respondedAt = now
        return document(record, names: try await accounts.names(of: [record.fromUserID, record.toUserID]))
    }

    enum Party { case sender, recipient }

    /// A pending request the caller may answer as `party`.
    func open(_ id: String, by userID: String, as party: Party, on sql: any SQLDatabase) async throws -> RequestRecord {
        guard let request = try await Self.request(id, locking: true, on: sql),
              request.fromUserID == userID || request.toUserID == userID
        else { throw KindredError.pairRequestNotFound }
        switch party {
        case .recipient: guard request.toUserID == userID else { throw KindredError.notRecipient }
        case .sender: guard request.fromUserID == userID else { throw KindredError.notRequester }
        }
        guard request.status == "pending" else { throw KindredError.pairRequestClosed }
        return request
    }

    /// Creates the pair of a pending request, closes every other pending request of the two, and
    /// tells both.
    func accept(_ request: RequestRecord, now: Int64, on tx: RealtimeTransaction) async throws -> RequestRecord {
        let sql = tx.sql
        let (sender, recipient) = (request.fromUserID, request.toUserID)
        if try await Self.membership(of: recipient, locking: true, on: sql) != nil { throw KindredError.alreadyPaired }
        if try await Self.membership(of: sender, locking: true, on: sql) != nil { throw KindredError.partnerAlreadyPaired }
        let pairID = RandomID.make()
        try await sql.insert(into: "soulmate_pairs").columns("id", "user_a_id", "user_b_id", "created_at")
            .values(SQLBind(pairID), SQLBind(sender), SQLBind(recipient), SQLBind(now)).run()
        for (member, partner) in [(sender, recipient), (recipient, sender)] {
            // The primary key on the user settles a race with another acceptance.
            let added = try await sql.insert(into: "soulmate_pair_members").columns("user_id", "pair_id", "partner_id", "joined_at")
                .values(SQLBind(member), SQLBind(pairID), SQLBind(partner), SQLBind(now)).ignoringConflicts()
                .returning("user_id").all()
            guard !added.isEmpty else { throw member == recipient ? KindredError.alreadyPaired : KindredError.partnerAlreadyPaired }
        }
        try await sql.update("soulmate_pair_requests").set("status", to: "accepted").set("responded_at", to: now)
            .where("id", .equal, request.id).run()
        // Everyone else who asked either of them, or whom they asked, is answered: superseded.
        try await sql.run(SoulMateQueries.supersedePendingOf.binding(now, sender, recipient, sender, recipient))
        try await events.emit(
            "soulmate.paired", data: ["pairId": pairID, "requestId": request.id], to: [sender, recipient],
            push: .init(type: .soulmatePairing, title: "SoulMate", body: "Your pair request was accepted.", data: ["pairId": pairID]),
            pushTo: [sender], on: tx
        )
        var accepted = request
        accepted.status = "accepted"
        accepted.respondedAt = now
        return accepted
    }
}
