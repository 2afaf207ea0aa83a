import CloserAPI
import Foundation
import KindredCrypto
import KindredServerCore
import KindredStore
import SQLKit

/// Commit, then open (docs/wire-formats.md, "Closer games"). Each write locks the couple's row
/// first (`FOR UPDATE` on PostgreSQL; SQLite's `BEGIN IMMEDIATE` serializes writers), so the
/// checks below read a state no concurrent write can change before the write commits.
extension CloserController {
    /// Records the caller's commitment for `round`.
    /// - Throws: 400 `invalid_game` (a round the game does not have), 409
    ///   `game_round_not_open` / `game_commitment_exists` / `game_commitment_replayed`, 404s.
    func commitGameSlot(
        _ user: AuthenticatedUser, coupleID: String, sessionID: String, round: Int, commitment: String
    ) async throws -> Components.Schemas.CloserGameSession {
        if let problem = CloserShapes.problem(commitment, .commitmentHash, field: "commitment") { throw KindredError.invalidGame(problem) }
        let callerID = user.user.id
        let now = nowMS
        return try await events.publisher.transaction { tx in
            let sql = tx.sql
            let couple = try await Self.couple(coupleID, member: callerID, locking: true, on: sql)
            var state = try await Self.gameState(sessionID, coupleID: coupleID, on: sql)
            try Self.checkRound(round, of: state)
            if let own = state.slot(callerID, round: round) {
                guard own.commitment == commitment else { throw KindredError.gameCommitmentExists }
                return state.document(for: callerID)
            }
            if round > 1, !state.bothOpened(round: round - 1) { throw KindredError.gameRoundNotOpen }
            let used = try await sql.select().column("session_id").from("closer_game_slots").where("commitment", .equal, commitment).first()
            guard used == nil else { throw KindredError.gameCommitmentReplayed }
            try await sql.insert(into: "closer_game_slots")
                .columns("session_id", "couple_id", "user_id", "round", "commitment", "committed_at")
                .values(SQLBind(sessionID), SQLBind(coupleID), SQLBind(callerID), SQLBind(round), SQLBind(commitment), SQLBind(now)).run()
            try await sql.update("closer_game_sessions").set("updated_at", to: now).where("id", .equal, sessionID).run()
            state = try await Self.gameState(sessionID, coupleID: coupleID, on: sql)
            let partnerWaits = state.slot(couple.partner(of: callerID), round: round) == nil
            try await gameUpdate(
                "closer.game_committed", session: state.session, round: round, from: callerID, couple: couple,
                push: partnerWaits ? "Your partner played their turn: it's yours" : nil, on: tx
            )
            return state.document(for: callerID)
        }
    }

    /// Opens the caller's slot of `round` with the ciphertext and nonce it committed to.
    /// - Throws: 400 `invalid_game` (shapes), 409 `game_not_committed` /
    ///   `game_waiting_for_partner` / `game_opening_mismatch` / `game_opening_exists`, 404s.
    func openGameSlot(
        _ user: AuthenticatedUser, coupleID: String, sessionID: String, round: Int, ciphertext: String, nonce: String
    ) async throws -> Components.Schemas.CloserGameSession {
        if let problem = CloserShapes.problem(ciphertext, .ciphertext, field: "ciphertext") { throw KindredError.invalidGame(problem) }
        guard nonce.utf8.count == 44, let nonceBytes = try? Base64.decode(nonce, alphabet: .standard), nonceBytes.count == 32 else {
            throw KindredError.invalidGame("nonce: must be 32 bytes in standard Base64 (44 characters)")
        }
        let callerID = user.user.id
        let now = nowMS
        return try await events.publisher.transaction { tx in
            let sql = tx.sql
            let couple = try await Self.couple(coupleID, member: callerID, locking: true, on: sql)
            var state = try await Self.gameState(sessionID, coupleID: coupleID, on: sql)
            try Self.checkRound(round, of: state)
            guard let own = state.slot(callerID, round: round) else { throw KindredError.gameNotCommitted }
            if own.isOpened {
                guard own.ciphertext == ciphertext, own.nonce == nonce else { throw KindredError.gameOpeningExists }
                return state.document(for: callerID)
            }
            let partnerID = couple.partner(of: callerID)
            guard let partner = state.slot(partnerID, round: round) else { throw KindredError.gameWaitingForPartner }
            guard
                GameCommitment.verifies(
                    own.commitment, sessionID: sessionID, userID: callerID, round: round, nonce: nonceBytes, ciphertext: ciphertext
                )
            else { throw KindredError.gameOpeningMismatch }
            try await sql.update("closer_game_slots").set("ciphertext", to: ciphertext).set("nonce", to: nonce).set("opened_at", to: now)
                .where("session_id", .equal, sessionID).where("user_id", .equal, callerID).where("round", .equal, round).run()
            try await sql.update("closer_game_sessions").set("updated_at", to: now).where("id", .equal, sessionID).run()
            state = try await Self.gameState(sessionID, coupleID: coupleID, on: sql)
            try await gameUpdate(
                "closer.game_opened", session: state.session, round: round, from: callerID, couple: couple,
                push: partner.isOpened ? nil : "Your partner revealed their turn: reveal yours", on: tx
            )
            if state.isFinished {
                try await sql.update("closer_game_sessions").set("finished_at", to: now).where("id", .equal, sessionID).run()
                state.session.finishedAt = now
                try await gameUpdate("closer.game_finished", session: state.session, round: round, from: callerID, couple: couple, push: nil, on: tx)
            }
            return state.document(for: callerID)
        }
    }

    /// - Throws: 400 `invalid_game` when the session's game has no such round.
    static func checkRound(_ round: Int, of state: GameSessionState) throws {
        guard (1...state.session.rounds).contains(round) else {
            throw KindredError.invalidGame("a \(state.session.kind.rawValue) session has \(state.session.rounds) round(s)")
        }
    }
}
