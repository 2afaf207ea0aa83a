import Foundation
import KindredServerCore
import KindredStore
import SoulMateAPI

/// SoulMate's contract operations: each authenticates, checks the app, unwraps the body and
/// calls the controller.
final class SoulMateHandler: APIProtocol, Sendable {
    let soulmate: SoulMateController
    let authenticator: Authenticator

    init(soulmate: SoulMateController, authenticator: Authenticator) {
        self.soulmate = soulmate
        self.authenticator = authenticator
    }

    /// The caller, a SoulMate account.
    func caller() async throws -> AuthenticatedUser {
        let user = try await authenticator.user()
        try SoulMateController.requireSoulMate(user)
        return user
    }

    func getSoulMateRoute(_ input: Operations.GetSoulMateRoute.Input) async throws -> Operations.GetSoulMateRoute.Output {
        let user: AuthenticatedUser
        do {
            user = try await caller()
        } catch let error as KindredError where error.status == 401 {
            // No usable session is not an error here: the answer is the sign-in screen.
            _ = try SoulMateInput.installationID(input.query.installationId)
            return .ok(.init(body: .json(.init(route: .auth, lock: .none, pendingRequests: 0))))
        }
        return .ok(.init(body: .json(try await soulmate.route(user, installationID: input.query.installationId))))
    }

    func getSoulMateSessionLock(_ input: Operations.GetSoulMateSessionLock.Input) async throws -> Operations.GetSoulMateSessionLock.Output {
        .ok(.init(body: .json(try await soulmate.sessionLock(try await caller()))))
    }

    func acquireSoulMateSessionLock(_ input: Operations.AcquireSoulMateSessionLock.Input) async throws -> Operations.AcquireSoulMateSessionLock.Output {
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .ok(.init(body: .json(try await soulmate.acquireLock(try await caller(), body))))
    }

    func releaseSoulMateSessionLock(_ input: Operations.ReleaseSoulMateSessionLock.Input) async throws -> Operations.ReleaseSoulMateSessionLock.Output {
        try await soulmate.releaseLock(try await caller(), installationID: input.query.installationId)
        return .noContent(.init())
    }

    func takeOverSoulMateSessionLock(_ input: Operations.TakeOverSoulMateSessionLock.Input) async throws -> Operations.TakeOverSoulMateSessionLock.Output {
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let user = try await caller()
        return .ok(.init(body: .json(try await soulmate.takeOver(user, body, scope: try RequestScope.require()))))
    }

    func getSoulMatePairCode(_ input: Operations.GetSoulMatePairCode.Input) async throws -> Operations.GetSoulMatePairCode.Output {
        .ok(.init(body: .json(try await soulmate.pairCode(try await caller()))))
    }

    func rotateSoulMatePairCode(_ input: Operations.RotateSoulMatePairCode.Input) async throws -> Operations.RotateSoulMatePairCode.Output {
        .ok(.init(body: .json(try await soulmate.rotatePairCode(try await caller()))))
    }

    func createSoulMatePairRequest(_ input: Operations.CreateSoulMatePairRequest.Input) async throws -> Operations.CreateSoulMatePairRequest.Output {
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let user = try await caller()
        return .created(.init(body: .json(try await soulmate.createPairRequest(user, code: body.code, scope: try RequestScope.require()))))
    }

    func listSoulMatePairRequests(_ input: Operations.ListSoulMatePairRequests.Input) async throws -> Operations.ListSoulMatePairRequests.Output {
        .ok(.init(body: .json(try await soulmate.pairRequests(try await caller()))))
    }

    func acceptSoulMatePairRequest(_ input: Operations.AcceptSoulMatePairRequest.Input) async throws -> Operations.AcceptSoulMatePairRequest.Output {
        .ok(.init(body: .json(try await soulmate.acceptPairRequest(try await caller(), id: input.path.requestId))))
    }

    func rejectSoulMatePairRequest(_ input: Operations.RejectSoulMatePairRequest.Input) async throws -> Operations.RejectSoulMatePairRequest.Output {
        .ok(.init(body: .json(try await soulmate.closePairRequest(try await caller(), id: input.path.requestId, rejecting: true))))
    }

    func cancelSoulMatePairRequest(_ input: Operations.CancelSoulMatePairRequest.Input) async throws -> Operations.CancelSoulMatePairRequest.Output {
        .ok(.init(body: .json(try await soulmate.closePairRequest(try await caller(), id: input.path.requestId, rejecting: false))))
    }

    func getSoulMatePair(_ input: Operations.GetSoulMatePair.Input) async throws -> Operations.GetSoulMatePair.Output {
        .ok(.init(body: .json(try await soulmate.pair(try await caller()))))
    }

    func createSoulMateUnpairRequest(_ input: Operations.CreateSoulMateUnpairRequest.Input) async throws -> Operations.CreateSoulMateUnpairRequest.Output {
        .created(.init(body: .json(try await soulmate.createUnpairRequest(try await caller()))))
    }

    func acceptSoulMateUnpairRequest(_ input: Operations.AcceptSoulMateUnpairRequest.Input) async throws -> Operations.AcceptSoulMateUnpairRequest.Output {
        .ok(.init(body: .json(try await soulmate.answerUnpair(try await caller(), id: input.path.requestId, .accept))))
    }

    func rejectSoulMateUnpairRequest(_ input: Operations.RejectSoulMateUnpairRequest.Input) async throws -> Operations.RejectSoulMateUnpairRequest.Output {
        .ok(.init(body: .json(try await soulmate.answerUnpair(try await caller(), id: input.path.requestId, .reject))))
    }

    func cancelSoulMateUnpairRequest(_ input: Operations.CancelSoulMateUnpairRequest.Input) async throws -> Operations.CancelSoulMateUnpairRequest.Output {
        .ok(.init(body: .json(try await soulmate.answerUnpair(try await caller(), id: input.path.requestId, .cancel))))
    }

    func leaveSoulMateUnpairRequest(_ input: Operations.LeaveSoulMateUnpairRequest.Input) async throws -> Operations.LeaveSoulMateUnpairRequest.Output {
        .ok(.init(body: .json(try await soulmate.answerUnpair(try await caller(), id: input.path.requestId, .leave))))
    }

    func publishSoulMateIdentityKey(_ input: Operations.PublishSoulMateIdentityKey.Input) async throws -> Operations.PublishSoulMateIdentityKey.Output {
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .ok(.init(body: .json(try await soulmate.publishKey(try await caller(), publicKey: body.publicKey))))
    }

    func getSoulMateIdentityKey(_ input: Operations.GetSoulMateIdentityKey.Input) async throws -> Operations.GetSoulMateIdentityKey.Output {
        .ok(.init(body: .json(try await soulmate.ownKey(try await caller()))))
    }

    func getSoulMatePartnerKey(_ input: Operations.GetSoulMatePartnerKey.Input) async throws -> Operations.GetSoulMatePartnerKey.Output {
        .ok(.init(body: .json(try await soulmate.partnerKey(try await caller()))))
    }

    func putSoulMateLocation(_ input: Operations.PutSoulMateLocation.Input) async throws -> Operations.PutSoulMateLocation.Output {
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .ok(.init(body: .json(try await soulmate.putLocation(try await caller(), ciphertext: body.ciphertext))))
    }

    func getSoulMatePartnerLocation(_ input: Operations.GetSoulMatePartnerLocation.Input) async throws -> Operations.GetSoulMatePartnerLocation.Output {
        .ok(.init(body: .json(try await soulmate.partnerLocation(try await caller()))))
    }

    func sendSoulMateEnvelope(_ input: Operations.SendSoulMateEnvelope.Input) async throws -> Operations.SendSoulMateEnvelope.Output {
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let result = try await soulmate.send(try await caller(), body)
        return result.duplicate
            ? .ok(.init(body: .json(.init(id: result.id, status: .duplicate))))
            : .created(.init(body: .json(.init(id: result.id, status: .queued))))
    }

    func listSoulMateEnvelopes(_ input: Operations.ListSoulMateEnvelopes.Input) async throws -> Operations.ListSoulMateEnvelopes.Output {
        .ok(.init(body: .json(try await soulmate.inbox(try await caller(), cursor: input.query.cursor, limit: input.query.limit))))
    }

    func acknowledgeSoulMateEnvelopes(_ input: Operations.AcknowledgeSoulMateEnvelopes.Input) async throws -> Operations.AcknowledgeSoulMateEnvelopes.Output {
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .ok(.init(body: .json(.init(deleted: try await soulmate.acknowledge(try await caller(), ids: body.ids)))))
    }
}
