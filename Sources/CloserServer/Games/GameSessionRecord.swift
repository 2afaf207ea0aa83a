import CloserAPI
import Foundation
import KindredServerCore
import SQLKit

/// A row of `closer_game_sessions`.
struct GameSessionRecord: Sendable {
    var id: String
    var coupleID: String
    var kind: GamesDocument.Kind
    var packID: String
    var rounds: Int
    var startedBy: String
    var createdAt: Int64
    var updatedAt: Int64
    var finishedAt: Int64?

    /// The columns read.
    static let columns = ["id", "couple_id", "kind", "pack_id", "rounds", "started_by", "created_at", "updated_at", "finished_at"]

    init(id: String, coupleID: String, kind: GamesDocument.Kind, packID: String, startedBy: String, now: Int64) {
        self.id = id
        self.coupleID = coupleID
        self.kind = kind
        self.packID = packID
        rounds = kind.rounds
        self.startedBy = startedBy
        createdAt = now
        updatedAt = now
        finishedAt = nil
    }

    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: String.self)
        coupleID = try row.decode(column: "couple_id", as: String.self)
        let kindText = try row.decode(column: "kind", as: String.self)
        guard let kind = GamesDocument.Kind(rawValue: kindText) else { throw KindredError.internal }
        self.kind = kind
        packID = try row.decode(column: "pack_id", as: String.self)
        rounds = try row.decode(column: "rounds", as: Int.self)
        startedBy = try row.decode(column: "started_by", as: String.self)
        createdAt = try row.decode(column: "created_at", as: Int64.self)
        updatedAt = try row.decode(column: "updated_at", as: Int64.self)
        finishedAt = try row.decode(column: "finished_at", as: Int64?.self)
    }
}

/// A row of `closer_game_slots`.
struct GameSlotRecord: Sendable {
    var sessionID: String
    var userID: String
    var round: Int
    var commitment: String
    var committedAt: Int64
    var ciphertext: String?
    var nonce: String?
    var openedAt: Int64?

    /// The columns read.
    static let columns = ["session_id", "user_id", "round", "commitment", "committed_at", "ciphertext", "nonce", "opened_at"]

    /// Whether the slot is opened.
    var isOpened: Bool { openedAt != nil }

    init(row: any SQLRow) throws {
        sessionID = try row.decode(column: "session_id", as: String.self)
        userID = try row.decode(column: "user_id", as: String.self)
        round = try row.decode(column: "round", as: Int.self)
        commitment = try row.decode(column: "commitment", as: String.self)
        committedAt = try row.decode(column: "committed_at", as: Int64.self)
        ciphertext = try row.decode(column: "ciphertext", as: String?.self)
        nonce = try row.decode(column: "nonce", as: String?.self)
        openedAt = try row.decode(column: "opened_at", as: Int64?.self)
    }
}

/// A session with its slots, and what a member may see of it.
struct GameSessionState: Sendable {
    var session: GameSessionRecord
    var slots: [GameSlotRecord]

    /// The slot of `userID` in `round`.
    func slot(_ userID: String, round: Int) -> GameSlotRecord? {
        slots.first { $0.userID == userID && $0.round == round }
    }

    /// Whether both members opened `round`.
    func bothOpened(round: Int) -> Bool {
        slots.filter { $0.round == round && $0.isOpened }.count == 2
    }

    /// The round in play: the first not opened by both (the last once finished).
    var currentRound: Int {
        (1...session.rounds).first { !bothOpened(round: $0) } ?? session.rounds
    }

    /// Whether every round is opened by both.
    var isFinished: Bool { (1...session.rounds).allSatisfy { bothOpened(round: $0) } }

    /// `committing`, `opening` or `finished`.
    var status: Components.Schemas.CloserGameSession.StatusPayload {
        if isFinished { return .finished }
        return slots.filter { $0.round == currentRound }.count == 2 ? .opening : .committing
    }

    /// The session as `viewer` may see it: their own slots in full, the partner's commitment,
    /// ciphertext and nonce only for rounds the viewer has opened.
    func document(for viewer: String) -> Components.Schemas.CloserGameSession {
        let visible = slots.sorted { ($0.round, $0.userID) < ($1.round, $1.userID) }.map { slot -> Components.Schemas.CloserGameSlot in
            let full = slot.userID == viewer || self.slot(viewer, round: slot.round)?.isOpened == true
            return .init(
                userId: slot.userID, round: slot.round, committed: true, opened: slot.isOpened,
                commitment: full ? slot.commitment : nil, ciphertext: full ? slot.ciphertext : nil, nonce: full ? slot.nonce : nil,
                committedAt: Date(millisecondsSince1970: slot.committedAt), openedAt: slot.openedAt.map { Date(millisecondsSince1970: $0) }
            )
        }
        return .init(
            id: session.id, coupleId: session.coupleID, kind: .init(rawValue: session.kind.rawValue) ?? .thisOrThat, packId: session.packID,
            rounds: session.rounds, round: currentRound, status: status, startedBy: session.startedBy,
            createdAt: Date(millisecondsSince1970: session.createdAt), updatedAt: Date(millisecondsSince1970: session.updatedAt),
            finishedAt: session.finishedAt.map { Date(millisecondsSince1970: $0) }, slots: visible
        )
    }
}
