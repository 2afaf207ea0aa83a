import CloserAPI
import Foundation
import KindredClient

/// Games on the device: packs, sessions, and the commit-then-open exchange of this account's
/// slots (docs/closer.md, "Games"). `GamePlay` builds on these to play a whole game.
extension CloserDevice {
    /// A game.
    public typealias GameKind = Components.Schemas.CloserGameKind

    /// One pack with its items (403 `premium_required` for a free couple's premium pack).
    public func gamePack(_ packId: String) async throws(CloserKitError) -> Components.Schemas.CloserGamePack {
        try await withCouple { couple throws(CloserKitError) in
            let output = try await call { [app] in
                try await $0.getCloserGamePack(path: .init(coupleId: couple.id, packId: packId), headers: .init(xKindredApp: app))
            }
            guard case .ok(let ok) = output, case .json(let pack) = ok.body else { throw Self.failure(output) }
            return pack
        }
    }

    /// Starts a session of `kind` over `packId`.
    public func startGame(_ kind: GameKind, packId: String) async throws(CloserKitError) -> Components.Schemas.CloserGameSession {
        try await withCouple { couple throws(CloserKitError) in
            let output = try await call { [app] in
                try await $0.createCloserGameSession(
                    path: .init(coupleId: couple.id), headers: .init(xKindredApp: app), body: .json(.init(kind: kind, packId: packId))
                )
            }
            guard case .created(let created) = output, case .json(let session) = created.body else { throw Self.failure(output) }
            return session
        }
    }

    /// One session as this account may see it.
    public func gameSession(_ sessionId: String) async throws(CloserKitError) -> Components.Schemas.CloserGameSession {
        try await withCouple { couple throws(CloserKitError) in
            let output = try await call { [app] in
                try await $0.getCloserGameSession(path: .init(coupleId: couple.id, sessionId: sessionId), headers: .init(xKindredApp: app))
            }
            guard case .ok(let ok) = output, case .json(let session) = ok.body else { throw Self.failure(output) }
            return session
        }
    }

    /// Sends this account's commitment for `round`.
    public func commitGameSlot(_ sessionId: String, round: Int, commitment: String) async throws(CloserKitError) -> Components.Schemas.CloserGameSession {
        let coupleId = try await withCouple { couple throws(CloserKitError) in couple.id }
        let output = try await call { [app] in
            try await $0.commitCloserGameSlot(
                path: .init(coupleId: coupleId, sessionId: sessionId, round: round), headers: .init(xKindredApp: app),
                body: .json(.init(commitment: commitment))
            )
        }
        guard case .ok(let ok) = output, case .json(let session) = ok.body else { throw Self.failure(output) }
        return session
    }

    /// Opens this account's slot of `round`.
    public func openGameSlot(_ sessionId: String, round: Int, opening: GameOpening) async throws(CloserKitError) -> Components.Schemas.CloserGameSession {
        let coupleId = try await withCouple { couple throws(CloserKitError) in couple.id }
        let output = try await call { [app] in
            try await $0.openCloserGameSlot(
                path: .init(coupleId: coupleId, sessionId: sessionId, round: round), headers: .init(xKindredApp: app),
                body: .json(.init(ciphertext: opening.ciphertext, nonce: opening.nonce))
            )
        }
        guard case .ok(let ok) = output, case .json(let session) = ok.body else { throw Self.failure(output) }
        return session
    }
}
