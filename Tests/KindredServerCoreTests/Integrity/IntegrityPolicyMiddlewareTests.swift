import DeviceIntegrity
import Foundation
import HTTPTypes
import HummingbirdTesting
@testable import KindredServerCore
import KindredServerTestSupport
import KindredTestSupport
import Testing

/// The policy on `GET /v1/me`: refuse, limit and log a device without a passing, fresh verdict.
@Suite struct IntegrityPolicyMiddlewareTests {
    static func policy(_ action: IntegrityAction) -> IntegrityPolicy {
        IntegrityPolicy(rules: [IntegrityRule(app: "closer", route: "/v1/me", missing: action, failed: action)])
    }

    @Test(arguments: Backend.all)
    func refuseNeedsAPassingFreshVerdictOfTheSameUser(backend: Backend) async throws {
        let device = try IntegrityTestDevice()
        try await IntegrityTestApplication.run(on: backend, device: device, policy: Self.policy(.refuse)) { _, clock, client in
            let session = try await client.anonymous()
            let header: HTTPFields = [IntegrityTestApplication.deviceKeyHeader: device.keyID]
            let missing = try await client.call(.get, "/v1/me", token: session.accessToken)
            #expect(missing.status == .forbidden)
            #expect(missing.errorCode == "integrity_required")
            #expect(try await client.call(.get, "/v1/me", token: session.accessToken, headers: header).errorCode == "integrity_required")

            #expect(try await client.registerKey(device, token: session.accessToken).status == .created)
            clock.advance(by: .seconds(1))
            let served = try await client.call(.get, "/v1/me", token: session.accessToken, headers: header)
            #expect(served.status == .ok, "\(served.text)")
            // Routes the policy does not cover, and other apps, are served without a verdict.
            #expect(try await client.call(.get, "/v1/me/notification-settings", token: session.accessToken).status == .ok)
            let soulmate = try await client.anonymous(app: "soulmate")
            #expect(try await client.call(.get, "/v1/me", app: "soulmate", token: soulmate.accessToken).status == .ok)
            // No token: a missing verdict, refused before the route; a bad token: the route's 401.
            #expect(try await client.call(.get, "/v1/me", headers: header).errorCode == "integrity_required")
            #expect(try await client.call(.get, "/v1/me", token: "garbage", headers: header).status == .unauthorized)

            // A failed assertion turns the device's verdict to failed.
            #expect(try await client.assert(device, counter: 0, token: session.accessToken).errorCode == "assertion_replayed")
            clock.advance(by: .seconds(1))
            #expect(try await client.call(.get, "/v1/me", token: session.accessToken, headers: header).errorCode == "integrity_required")
            #expect(try await client.assert(device, counter: 1, token: session.accessToken).status == .ok)
            clock.advance(by: .seconds(1))
            #expect(try await client.call(.get, "/v1/me", token: session.accessToken, headers: header).status == .ok)
            // A pass older than the verdict lifetime (24 hours) no longer counts.
            clock.advance(by: .seconds(86_401))
            let renewed = try await client.refresh(session.refreshToken).decode(SessionBody.self)
            #expect(try await client.call(.get, "/v1/me", token: renewed.accessToken, headers: header).errorCode == "integrity_required")
        }
    }

    @Test(arguments: Backend.all)
    func limitHoldsUnverifiedDevicesToTheTighterRate(backend: Backend) async throws {
        let device = try IntegrityTestDevice()
        try await IntegrityTestApplication.run(on: backend, device: device, policy: Self.policy(.limit), limitPerMinute: 2) { _, clock, client in
            let session = try await client.anonymous()
            #expect(try await client.call(.get, "/v1/me", token: session.accessToken).status == .ok)
            #expect(try await client.call(.get, "/v1/me", token: session.accessToken).status == .ok)
            let third = try await client.call(.get, "/v1/me", token: session.accessToken)
            #expect(third.status == .tooManyRequests)
            #expect(third.errorCode == "rate_limited")
            // A verified device is not limited.
            #expect(try await client.registerKey(device, token: session.accessToken).status == .created)
            clock.advance(by: .seconds(1))
            let header: HTTPFields = [IntegrityTestApplication.deviceKeyHeader: device.keyID]
            for _ in 0..<4 {
                #expect(try await client.call(.get, "/v1/me", token: session.accessToken, headers: header).status == .ok)
            }
            // The window passes and the unverified device is served again.
            clock.advance(by: .seconds(61))
            #expect(try await client.call(.get, "/v1/me", token: session.accessToken).status == .ok)
        }
    }

    @Test(arguments: Backend.all)
    func aRuleForEveryRouteLeavesTheIntegrityRoutesOpen(backend: Backend) async throws {
        let device = try IntegrityTestDevice()
        let everything = IntegrityPolicy(rules: [IntegrityRule(app: "closer", route: "*", missing: .refuse, failed: .refuse)])
        try await IntegrityTestApplication.run(on: backend, device: device, policy: everything) { _, clock, client in
            let session = try await client.anonymous()
            #expect(try await client.call(.get, "/v1/me", token: session.accessToken).errorCode == "integrity_required")
            #expect(try await client.registerKey(device, token: session.accessToken).status == .created)
            clock.advance(by: .seconds(1))
            let header: HTTPFields = [IntegrityTestApplication.deviceKeyHeader: device.keyID]
            #expect(try await client.call(.get, "/v1/me", token: session.accessToken, headers: header).status == .ok)
        }
    }

    @Test(arguments: Backend.all)
    func logServesEveryRequest(backend: Backend) async throws {
        let device = try IntegrityTestDevice()
        try await IntegrityTestApplication.run(on: backend, device: device, policy: Self.policy(.log), limitPerMinute: 1) { _, _, client in
            let session = try await client.anonymous()
            for _ in 0..<3 {
                #expect(try await client.call(.get, "/v1/me", token: session.accessToken).status == .ok)
            }
        }
    }
}
