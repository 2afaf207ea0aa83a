import CloserAPI
import KindredServerCore
import OpenAPIRuntime

/// The operations of the `outcomes` tag: the 30/60/90-day check-ins.
extension CloserHandler {
    func listCloserOutcomes(_ input: Operations.ListCloserOutcomes.Input) async throws -> Operations.ListCloserOutcomes.Output {
        let user = try await closerUser()
        return .ok(.init(body: .json(try await closer.outcomes(user, coupleID: input.path.coupleId))))
    }

    func submitCloserOutcome(_ input: Operations.SubmitCloserOutcome.Input) async throws -> Operations.SubmitCloserOutcome.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let checkIn = try await closer.submitOutcome(user, coupleID: input.path.coupleId, key: input.path.dayKey, answers: body.answers)
        return .created(.init(body: .json(checkIn)))
    }
}
