import CloserAPI
import KindredServerCore
import OpenAPIRuntime

/// The operations of the `challenges` tag: the catalog, joining, instances, days and leaving.
extension CloserHandler {
    func listCloserChallenges(_ input: Operations.ListCloserChallenges.Input) async throws -> Operations.ListCloserChallenges.Output {
        _ = try await closerUser()
        return .ok(.init(body: .json(closer.challengeCatalog())))
    }

    func joinCloserChallenge(_ input: Operations.JoinCloserChallenge.Input) async throws -> Operations.JoinCloserChallenge.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .created(.init(body: .json(try await closer.joinChallenge(user, coupleID: input.path.coupleId, challengeID: body.challengeId))))
    }

    func listCloserCoupleChallenges(
        _ input: Operations.ListCloserCoupleChallenges.Input
    ) async throws -> Operations.ListCloserCoupleChallenges.Output {
        let user = try await closerUser()
        return .ok(.init(body: .json(try await closer.challengeInstances(user, coupleID: input.path.coupleId, limit: input.query.limit))))
    }

    func getCloserChallengeInstance(
        _ input: Operations.GetCloserChallengeInstance.Input
    ) async throws -> Operations.GetCloserChallengeInstance.Output {
        let user = try await closerUser()
        let instance = try await closer.challengeInstance(user, coupleID: input.path.coupleId, instanceID: input.path.instanceId)
        return .ok(.init(body: .json(instance)))
    }

    func markCloserChallengeDay(_ input: Operations.MarkCloserChallengeDay.Input) async throws -> Operations.MarkCloserChallengeDay.Output {
        let user = try await closerUser()
        let instance = try await closer.markChallengeDay(
            user, coupleID: input.path.coupleId, instanceID: input.path.instanceId, day: input.path.day
        )
        return .ok(.init(body: .json(instance)))
    }

    func leaveCloserChallenge(_ input: Operations.LeaveCloserChallenge.Input) async throws -> Operations.LeaveCloserChallenge.Output {
        let user = try await closerUser()
        let instance = try await closer.leaveChallenge(user, coupleID: input.path.coupleId, instanceID: input.path.instanceId)
        return .ok(.init(body: .json(instance)))
    }
}
