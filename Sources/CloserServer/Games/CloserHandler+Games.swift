import CloserAPI
import KindredServerCore
import OpenAPIRuntime

/// The operations of the `games` tag: packs, sessions, commitments and openings.
extension CloserHandler {
    func listCloserGamePacks(_ input: Operations.ListCloserGamePacks.Input) async throws -> Operations.ListCloserGamePacks.Output {
        _ = try await closerUser()
        return .ok(.init(body: .json(closer.gamePacks(kind: input.query.kind))))
    }

    func getCloserGamePack(_ input: Operations.GetCloserGamePack.Input) async throws -> Operations.GetCloserGamePack.Output {
        let user = try await closerUser()
        return .ok(.init(body: .json(try await closer.gamePack(user, coupleID: input.path.coupleId, packID: input.path.packId))))
    }

    func createCloserGameSession(_ input: Operations.CreateCloserGameSession.Input) async throws -> Operations.CreateCloserGameSession.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let session = try await closer.startGame(user, coupleID: input.path.coupleId, body: body, rateLimiter: rateLimiter)
        return .created(.init(body: .json(session)))
    }

    func listCloserGameSessions(_ input: Operations.ListCloserGameSessions.Input) async throws -> Operations.ListCloserGameSessions.Output {
        let user = try await closerUser()
        let list = try await closer.gameSessions(user, coupleID: input.path.coupleId, kind: input.query.kind, limit: input.query.limit)
        return .ok(.init(body: .json(list)))
    }

    func getCloserGameSession(_ input: Operations.GetCloserGameSession.Input) async throws -> Operations.GetCloserGameSession.Output {
        let user = try await closerUser()
        return .ok(.init(body: .json(try await closer.gameSession(user, coupleID: input.path.coupleId, sessionID: input.path.sessionId))))
    }

    func commitCloserGameSlot(_ input: Operations.CommitCloserGameSlot.Input) async throws -> Operations.CommitCloserGameSlot.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let session = try await closer.commitGameSlot(
            user, coupleID: input.path.coupleId, sessionID: input.path.sessionId, round: input.path.round, commitment: body.commitment
        )
        return .ok(.init(body: .json(session)))
    }

    func openCloserGameSlot(_ input: Operations.OpenCloserGameSlot.Input) async throws -> Operations.OpenCloserGameSlot.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let session = try await closer.openGameSlot(
            user, coupleID: input.path.coupleId, sessionID: input.path.sessionId, round: input.path.round,
            ciphertext: body.ciphertext, nonce: body.nonce
        )
        return .ok(.init(body: .json(session)))
    }
}
