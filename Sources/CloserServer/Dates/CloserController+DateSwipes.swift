import CloserAPI
import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// Swipes and matches: the seed's `date_swipes`, `date_matches` and
/// `createDateMatchOnMutualLove`, done in the swipe's own transaction.
///
/// Race safety: the swipe locks the couple's row first (`FOR UPDATE` on PostgreSQL; SQLite's
/// `BEGIN IMMEDIATE` serializes writers), so of two partners loving an idea at the same moment
/// the second one reads the first one's committed swipe; and `closer_date_matches` holds
/// `(couple_id, idea_id)` unique, inserted with `ON CONFLICT DO NOTHING`, so the match and its
/// notifications happen exactly once even if a swipe is repeated.
extension CloserController {
    /// The swipe values.
    static let swipeActions: Set<String> = ["love", "maybe", "skip"]

    /// A match row.
    struct DateMatchRow: Sendable {
        var id: String
        var coupleID: String
        var ideaID: String
        var createdAt: Int64

        init(row: any SQLRow) throws {
            id = try row.decode(column: "id", as: String.self)
            coupleID = try row.decode(column: "couple_id", as: String.self)
            ideaID = try row.decode(column: "idea_id", as: String.self)
            createdAt = try row.decode(column: "created_at", as: Int64.self)
        }
    }

    /// Records (or replaces) the caller's swipe; a mutual love makes the couple's match once.
    /// - Throws: 404 `date_idea_not_found`, 400 `invalid_swipe`, 404 `couple_not_found`.
    func swipe(_ user: AuthenticatedUser, coupleID: String, ideaID: String, action: String) async throws -> Components.Schemas.CloserDateSwipe {
        guard dateIdeas.ideasByID[ideaID] != nil else { throw KindredError.dateIdeaNotFound }
        guard Self.swipeActions.contains(action) else { throw KindredError.invalidSwipe }
        let callerID = user.user.id
        let now = nowMS
        let events = self.events
        let match: DateMatchRow? = try await events.publisher.transaction { tx in
            let sql = tx.sql
            let couple = try await Self.couple(coupleID, member: callerID, locking: true, on: sql)
            try await sql.insert(into: "closer_date_swipes")
                .columns("couple_id", "user_id", "idea_id", "action", "created_at", "updated_at")
                .values(SQLBind(coupleID), SQLBind(callerID), SQLBind(ideaID), SQLBind(action), SQLBind(now), SQLBind(now))
                .onConflict(with: ["couple_id", "user_id", "idea_id"]) { $0.set(excludedValueOf: "action").set(excludedValueOf: "updated_at") }
                .run()
            guard action == "love" else { return nil }
            let partnerID = couple.partner(of: callerID)
            let partner = try await sql.select().column("action").from("closer_date_swipes")
                .where("couple_id", .equal, coupleID).where("user_id", .equal, partnerID).where("idea_id", .equal, ideaID)
                .first()?.decode(column: "action", as: String.self)
            guard partner == "love" else { return nil }
            let matchID = RandomID.make()
            let created = try await sql.insert(into: "closer_date_matches").columns("id", "couple_id", "idea_id", "created_at")
                .values(SQLBind(matchID), SQLBind(coupleID), SQLBind(ideaID), SQLBind(now))
                .ignoringConflicts(with: ["couple_id", "idea_id"]).returning("id").all()
            if !created.isEmpty {
                try await Self.announceMatch(matchID: matchID, ideaID: ideaID, couple: couple, events: events, on: tx)
            }
            return try await Self.match(coupleID: coupleID, ideaID: ideaID, on: sql)
        }
        return .init(ideaId: ideaID, action: action, swipedAt: Date(millisecondsSince1970: now), match: match.map { document($0) })
    }

    /// The couple's matches, newest first; the cursor is `createdAt_id` of the last one.
    func dateMatches(_ user: AuthenticatedUser, coupleID: String, limit: Int?, cursor: String?) async throws -> Components.Schemas.CloserDateMatchPage {
        let limit = try Self.pageLimit(limit)
        let sql = database.sql
        _ = try await Self.couple(coupleID, member: user.user.id, on: sql)
        var query = sql.select().columns("id", "couple_id", "idea_id", "created_at").from("closer_date_matches").where("couple_id", .equal, coupleID)
        if let cursor {
            let parts = cursor.split(separator: "_", maxSplits: 1)
            guard parts.count == 2, let time = Int64(parts[0]) else { throw KindredError.badRequest("cursor is not one this server issued") }
            let id = String(parts[1])
            query = query.where { $0.where("created_at", .lessThan, time).orWhere { $0.where("created_at", .equal, time).where("id", .lessThan, id) } }
        }
        var rows = try await query.orderBy("created_at", .descending).orderBy("id", .descending).limit(limit + 1).all().map(DateMatchRow.init(row:))
        let more = rows.count > limit
        if more { rows.removeLast() }
        return .init(matches: rows.map { document($0) }, nextCursor: more ? rows.last.map { "\($0.createdAt)_\($0.id)" } : nil)
    }

    /// The API document of a match, with its idea when the catalog still has it.
    func document(_ match: DateMatchRow) -> Components.Schemas.CloserDateMatch {
        .init(
            id: match.id, coupleId: match.coupleID, ideaId: match.ideaID, idea: dateIdeas.ideasByID[match.ideaID].map { document($0) },
            createdAt: Date(millisecondsSince1970: match.createdAt)
        )
    }

    /// The couple's match of an idea, if any.
    static func match(coupleID: String, ideaID: String, on sql: any SQLDatabase) async throws -> DateMatchRow? {
        try await sql.select().columns("id", "couple_id", "idea_id", "created_at").from("closer_date_matches")
            .where("couple_id", .equal, coupleID).where("idea_id", .equal, ideaID).first().map(DateMatchRow.init(row:))
    }

    /// One `closer.date_match` on the couple's channel and a `date_match` push to each partner
    /// (the outbox applies each one's quiet hours and opt-outs), in the match's transaction.
    static func announceMatch(
        matchID: String, ideaID: String, couple: CoupleRecord, events: CloserEvents, on tx: RealtimeTransaction
    ) async throws {
        let data = ["matchId": matchID, "ideaId": ideaID, "coupleId": couple.id]
        if let channel = CloserEvents.channel(couple.id) {
            try await events.publisher.publish(channel: channel, type: "closer.date_match", data: data, on: tx)
        }
        var payload = data
        payload["event"] = "closer.date_match"
        for recipient in couple.userIDs {
            _ = try await events.outbox.enqueue(
                OutgoingNotification(
                    userID: recipient, app: .closer, type: .closerDateMatch, title: "It's a match",
                    body: "You both love the same date idea.", data: payload, collapseID: "closer.date_match:\(matchID)"
                ),
                on: tx.sql
            )
        }
    }
}
