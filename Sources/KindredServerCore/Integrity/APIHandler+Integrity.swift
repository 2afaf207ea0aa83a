import KindredAPI
import OpenAPIRuntime

/// The device-integrity operations of the core contract (`/v1/integrity/*`), served by `IntegrityService`.
extension APIHandler {
    func createIntegrityChallenge(
        _ input: Operations.CreateIntegrityChallenge.Input
    ) async throws -> Operations.CreateIntegrityChallenge.Output {
        let user = try await authenticatedUser()
        let scope = try RequestScope.require()
        let app = try RequestScope.requireApp()
        let issued = try await integrity.challenge(userID: user.id, app: app.id, logger: scope.logger)
        return .created(.init(body: .json(.init(challenge: issued.challenge, expiresAt: issued.expiresAt))))
    }

    func registerAppAttestKey(
        _ input: Operations.RegisterAppAttestKey.Input
    ) async throws -> Operations.RegisterAppAttestKey.Output {
        let user = try await authenticatedUser()
        let app = try RequestScope.requireApp()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let record = try await integrity.registerAppAttestKey(
            userID: user.id, app: app.id, keyID: body.keyId, attestation: body.attestation, challenge: body.challenge,
            now: integrity.store.clock.now()
        )
        return .created(.init(body: .json(Self.representation(of: record))))
    }

    func submitAppAttestAssertion(
        _ input: Operations.SubmitAppAttestAssertion.Input
    ) async throws -> Operations.SubmitAppAttestAssertion.Output {
        let user = try await authenticatedUser()
        let app = try RequestScope.requireApp()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let record = try await integrity.assert(
            userID: user.id, app: app.id, keyID: body.keyId, assertion: body.assertion, challenge: body.challenge
        )
        return .ok(.init(body: .json(Self.representation(of: record))))
    }

    func submitPlayIntegrityToken(
        _ input: Operations.SubmitPlayIntegrityToken.Input
    ) async throws -> Operations.SubmitPlayIntegrityToken.Output {
        let user = try await authenticatedUser()
        let app = try RequestScope.requireApp()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let record = try await integrity.submitPlayIntegrity(
            userID: user.id, app: app.id, deviceID: body.deviceId, token: body.token, challenge: body.challenge,
            now: integrity.store.clock.now()
        )
        return .ok(.init(body: .json(Self.representation(of: record))))
    }

    /// The API form of a recorded verdict.
    static func representation(of record: IntegrityVerdictRecord) -> Components.Schemas.IntegrityVerdict {
        .init(
            device: record.device,
            platform: record.platform == IntegrityPlatform.playIntegrity.rawValue ? .playIntegrity : .appAttest,
            verdict: record.verdict == "passed" ? .passed : .failed,
            reason: record.reason,
            recordedAt: record.recordedAt
        )
    }
}
