import CloserAPI
import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// Game packs and sessions (docs/closer.md, "Games"): the seed's
/// `couples/{coupleId}/this_or_that|desire_sync|how_well|wheel/{sessionId}`, one slot per partner
/// and round. Commitments and openings are in `CloserController+GameSlots.swift`.
extension CloserController {
    /// The packs' metadata, optionally of one game.
    func gamePacks(kind: Components.Schemas.CloserGameKind?) -> Components.Schemas.CloserGamePackList {
        let packs = games.packs.filter { kind == nil || $0.kind.rawValue == kind?.rawValue }
        return .init(packs: packs.map { document($0, withItems: false) })
    }

    /// One pack with its items, premium packs only for premium couples.
    /// - Throws: 404 `couple_not_found` / `game_pack_not_found`, 403 `premium_required`.
    func gamePack(_ user: AuthenticatedUser, coupleID: String, packID: String) async throws -> Components.Schemas.CloserGamePack {
        let couple = try await Self.couple(coupleID, member: user.user.id, on: database.sql)
        let pack = try await openablePack(packID, couple: couple)
        return document(pack, withItems: true)
    }

    /// The pack if it exists and the couple may open it (fails closed: an entitlement that
    /// cannot be read counts as free).
    func openablePack(_ packID: String, couple: CoupleRecord) async throws -> GamesDocument.Pack {
        guard let pack = games.packsByID[packID] else { throw KindredError.gamePackNotFound }
        if pack.isPremium {
            let premium = (try? await isPremium(couple)) ?? false
            guard premium else { throw KindredError.premiumRequired }
        }
        return pack
    }

    /// Starts a session and tells the partner.
    /// - Throws: 400 `invalid_game`, 404 `game_pack_not_found`, 403 `premium_required`, 429.
    func startGame(
        _ user: AuthenticatedUser, coupleID: String, body: Components.Schemas.CloserGameSessionCreate, rateLimiter: RateLimiter
    ) async throws -> Components.Schemas.CloserGameSession {
        let callerID = user.user.id
        let couple = try await Self.couple(coupleID, member: callerID, on: database.sql)
        guard let kind = GamesDocument.Kind(rawValue: body.kind.rawValue) else { throw KindredError.invalidGame("unknown game") }
        let pack = try await openablePack(body.packId, couple: couple)
        guard pack.kind == kind else { throw KindredError.invalidGame("pack \(pack.id) is a \(pack.kind.rawValue) pack, not \(kind.rawValue)") }
        let decision = try await rateLimiter.check(key: "closer.games:\(coupleID)", limit: settings.gameSessionsPerHour, window: .seconds(3600))
        if case .retryAfter(let seconds) = decision { throw KindredError.rateLimited(retryAfterSeconds: seconds) }
        let session = GameSessionRecord(id: RandomID.make(), coupleID: coupleID, kind: kind, packID: pack.id, startedBy: callerID, now: nowMS)
        let events = self.events
        try await events.publisher.transaction { tx in
            let couple = try await Self.couple(coupleID, member: callerID, locking: true, on: tx.sql)
            try await tx.sql.insert(into: "closer_game_sessions").columns(GameSessionRecord.columns)
                .values(
                    SQLBind(session.id), SQLBind(session.coupleID), SQLBind(kind.rawValue), SQLBind(session.packID), SQLBind(session.rounds),
                    SQLBind(callerID), SQLBind(session.createdAt), SQLBind(session.updatedAt), SQLBind(session.finishedAt)
                ).run()
            try await gameUpdate(
                "closer.game_started", session: session, round: 1, from: callerID, couple: couple, push: "Your partner started a game",
                on: tx
            )
        }
        return GameSessionState(session: session, slots: []).document(for: callerID)
    }

    /// The couple's sessions, newest first.
    func gameSessions(
        _ user: AuthenticatedUser, coupleID: String, kind: Components.Schemas.CloserGameKind?, limit: Int?
    ) async throws -> Components.Schemas.CloserGameSessionList {
        let limit = try Self.pageLimit(limit)
        let sql = database.sql
        _ = try await Self.couple(coupleID, member: user.user.id, on: sql)
        var query = sql.select().columns(GameSessionRecord.columns).from("closer_game_sessions").where("couple_id", .equal, coupleID)
        if let kind { query = query.where("kind", .equal, kind.rawValue) }
        let sessions = try await query.orderBy("created_at", .descending).orderBy("id", .descending).limit(limit).all()
            .map(GameSessionRecord.init(row:))
        var states: [GameSessionState] = []
        for session in sessions { states.append(GameSessionState(session: session, slots: try await Self.gameSlots(session.id, on: sql))) }
        return .init(sessions: states.map { $0.document(for: user.user.id) })
    }

    /// One session as the caller may see it.
    /// - Throws: 404 `couple_not_found` / `game_session_not_found`.
    func gameSession(_ user: AuthenticatedUser, coupleID: String, sessionID: String) async throws -> Components.Schemas.CloserGameSession {
        let sql = database.sql
        _ = try await Self.couple(coupleID, member: user.user.id, on: sql)
        return try await Self.gameState(sessionID, coupleID: coupleID, on: sql).document(for: user.user.id)
    }

    /// The session `sessionID` of the couple with its slots.
    static func gameState(_ sessionID: String, coupleID: String, on sql: any SQLDatabase) async throws -> GameSessionState {
        guard
            let row = try await sql.select().columns(GameSessionRecord.columns).from("closer_game_sessions")
                .where("id", .equal, sessionID).where("couple_id", .equal, coupleID).first()
        else { throw KindredError.gameSessionNotFound }
        return GameSessionState(session: try GameSessionRecord(row: row), slots: try await gameSlots(sessionID, on: sql))
    }

    /// The slots of a session.
    static func gameSlots(_ sessionID: String, on sql: any SQLDatabase) async throws -> [GameSlotRecord] {
        try await sql.select().columns(GameSlotRecord.columns).from("closer_game_slots").where("session_id", .equal, sessionID)
            .orderBy("round").orderBy("user_id").all().map(GameSlotRecord.init(row:))
    }

    /// The API document of a pack.
    func document(_ pack: GamesDocument.Pack, withItems: Bool) -> Components.Schemas.CloserGamePack {
        .init(
            id: pack.id, kind: .init(rawValue: pack.kind.rawValue) ?? .thisOrThat, title: pack.title, description: pack.description,
            isPremium: pack.isPremium, itemCount: pack.items.count,
            items: withItems ? pack.items.map { .init(id: $0.id, prompt: $0.prompt, options: $0.options) } : nil
        )
    }

    /// Publishes `type` on the couple's channel and pushes the partner of `from` (`game_session`,
    /// quiet hours and opt-outs applied by the outbox) unless they were pushed about a game less
    /// than `settings.gamePushInterval` ago: a game cannot spam.
    func gameUpdate(
        _ type: String, session: GameSessionRecord, round: Int, from callerID: String, couple: CoupleRecord, push: String?,
        on tx: RealtimeTransaction
    ) async throws {
        let partnerID = couple.partner(of: callerID)
        var recipient: String?
        if push != nil {
            let last = try await tx.sql.select().column("pushed_at").from("closer_game_pushes")
                .where("couple_id", .equal, couple.id).where("user_id", .equal, partnerID).first()?.decode(column: "pushed_at", as: Int64.self)
            let now = nowMS
            let interval = settings.gamePushInterval.components.seconds * 1000
            if last.map({ now - $0 >= interval }) ?? true {
                recipient = partnerID
                try await tx.sql.insert(into: "closer_game_pushes").columns("couple_id", "user_id", "pushed_at")
                    .values(SQLBind(couple.id), SQLBind(partnerID), SQLBind(now))
                    .onConflict(with: ["couple_id", "user_id"]) { $0.set(excludedValueOf: "pushed_at") }.run()
            }
        }
        try await events.emit(
            .init(
                type: type, notification: .closerGameSession, title: "Closer", body: push ?? "",
                data: ["sessionId": session.id, "kind": session.kind.rawValue, "round": String(round), "userId": callerID]
            ),
            coupleID: couple.id, to: recipient, on: tx
        )
    }
}
