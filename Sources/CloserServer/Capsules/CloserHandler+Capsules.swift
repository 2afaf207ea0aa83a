import CloserAPI
import KindredServerCore
import OpenAPIRuntime

/// The operations of the `capsules` tag: memory-lane time capsules.
extension CloserHandler {
    func createCloserCapsule(_ input: Operations.CreateCloserCapsule.Input) async throws -> Operations.CreateCloserCapsule.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .created(.init(body: .json(try await closer.createCapsule(user, coupleID: input.path.coupleId, body: body))))
    }

    func listCloserCapsules(_ input: Operations.ListCloserCapsules.Input) async throws -> Operations.ListCloserCapsules.Output {
        let user = try await closerUser()
        return .ok(.init(body: .json(try await closer.capsules(user, coupleID: input.path.coupleId))))
    }

    func getCloserCapsule(_ input: Operations.GetCloserCapsule.Input) async throws -> Operations.GetCloserCapsule.Output {
        let user = try await closerUser()
        return .ok(.init(body: .json(try await closer.openCapsule(user, coupleID: input.path.coupleId, capsuleID: input.path.capsuleId))))
    }

    func deleteCloserCapsule(_ input: Operations.DeleteCloserCapsule.Input) async throws -> Operations.DeleteCloserCapsule.Output {
        try await closer.deleteCapsule(try await closerUser(), coupleID: input.path.coupleId, capsuleID: input.path.capsuleId)
        return .noContent(.init())
    }
}
