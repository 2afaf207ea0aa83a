import CloserAPI
import KindredClient

/// Connection challenges on the device (docs/closer.md, "Connection challenges"): the catalog,
/// joining as a couple, marking this account's step of a day, both partners' progress, leaving.
extension CloserDevice {
    /// One joined challenge with both partners' progress.
    public typealias ChallengeInstance = Components.Schemas.CloserChallengeInstance

    /// The catalog (without the steps; an instance carries them once joined).
    public func challengeCatalog() async throws(CloserKitError) -> [Components.Schemas.CloserChallenge] {
        let output = try await call { [app] in try await $0.listCloserChallenges(headers: .init(xKindredApp: app)) }
        guard case .ok(let ok) = output, case .json(let list) = ok.body else { throw Self.failure(output) }
        return list.challenges
    }

    /// Joins `challengeId` for the couple (day 1 is today in the couple's zone).
    public func joinChallenge(_ challengeId: String) async throws(CloserKitError) -> ChallengeInstance {
        try await withCouple { couple throws(CloserKitError) in
            let output = try await call { [app] in
                try await $0.joinCloserChallenge(
                    path: .init(coupleId: couple.id), headers: .init(xKindredApp: app), body: .json(.init(challengeId: challengeId))
                )
            }
            guard case .created(let created) = output, case .json(let instance) = created.body else { throw Self.failure(output) }
            return instance
        }
    }

    /// The couple's instances, active first.
    public func challengeInstances() async throws(CloserKitError) -> [ChallengeInstance] {
        try await withCouple { couple throws(CloserKitError) in
            let output = try await call { [app] in
                try await $0.listCloserCoupleChallenges(path: .init(coupleId: couple.id), headers: .init(xKindredApp: app))
            }
            guard case .ok(let ok) = output, case .json(let list) = ok.body else { throw Self.failure(output) }
            return list.instances
        }
    }

    /// One instance by its id, or the active instance of a challenge id.
    /// - Throws: `CloserKitError.invalidInput` when neither matches.
    public func challengeInstance(_ instanceOrChallengeId: String) async throws(CloserKitError) -> ChallengeInstance {
        let instances = try await challengeInstances()
        if let match = instances.first(where: { $0.id == instanceOrChallengeId })
            ?? instances.first(where: { $0.challengeId == instanceOrChallengeId && $0.status == .active })
        {
            return match
        }
        throw .invalidInput("no joined challenge or instance \(instanceOrChallengeId); see `challenge progress`")
    }

    /// Marks this account's step of `day` (default: today's) done; marking again is harmless.
    public func markChallengeDay(_ instanceOrChallengeId: String, day: Int? = nil) async throws(CloserKitError) -> ChallengeInstance {
        let instance = try await challengeInstance(instanceOrChallengeId)
        let output = try await call { [app] in
            try await $0.markCloserChallengeDay(
                path: .init(coupleId: instance.coupleId, instanceId: instance.id, day: day ?? instance.currentDay),
                headers: .init(xKindredApp: app)
            )
        }
        guard case .ok(let ok) = output, case .json(let updated) = ok.body else { throw Self.failure(output) }
        return updated
    }

    /// Leaves (abandons) an active instance for both partners.
    public func leaveChallenge(_ instanceOrChallengeId: String) async throws(CloserKitError) -> ChallengeInstance {
        let instance = try await challengeInstance(instanceOrChallengeId)
        let output = try await call { [app] in
            try await $0.leaveCloserChallenge(path: .init(coupleId: instance.coupleId, instanceId: instance.id), headers: .init(xKindredApp: app))
        }
        guard case .ok(let ok) = output, case .json(let left) = ok.body else { throw Self.failure(output) }
        return left
    }
}
