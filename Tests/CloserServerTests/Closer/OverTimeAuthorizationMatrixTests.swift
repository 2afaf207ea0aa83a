@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredTestSupport
import Testing

/// The check-in and capsule routes against the member (acting on its own capsule), the partner,
/// a stranger, an anonymous account and no token, as `CloserAuthorizationMatrixTests` does for
/// the other Closer routes, on both backends.
@Suite struct OverTimeAuthorizationMatrixTests {
    typealias Caller = CloserAuthorizationMatrixTests.Caller
    typealias Route = CloserAuthorizationMatrixTests.Route

    static let answers = #"{"answers":"enc:v1:\#(CloserFixtures.base64(60))"}"#
    static let capsule = #"{"title":"enc:v1:\#(CloserFixtures.base64(30))","content":"enc:v1:\#(CloserFixtures.base64(60))","unlockAt":"2040-01-01T00:00:00Z"}"#

    /// `{c}` the couple, `{k}` a locked capsule the member sealed.
    static let routes: [Route] = [
        Route(method: .get, path: "/v1/closer/couples/{c}/outcomes", expected: [200, 200, 404, 404, 401]),
        Route(method: .put, path: "/v1/closer/couples/{c}/outcomes/day_0", body: answers, expected: [201, 201, 404, 404, 401]),
        Route(method: .put, path: "/v1/closer/couples/{c}/outcomes/day_90", body: answers, expected: [409, 409, 404, 404, 401]),
        Route(method: .post, path: "/v1/closer/couples/{c}/capsules", body: capsule, expected: [201, 201, 404, 404, 401]),
        Route(method: .get, path: "/v1/closer/couples/{c}/capsules", expected: [200, 200, 404, 404, 401]),
        Route(method: .get, path: "/v1/closer/couples/{c}/capsules/{k}", expected: [409, 409, 404, 404, 401]),
        Route(method: .delete, path: "/v1/closer/couples/{c}/capsules/{k}", expected: [204, 403, 404, 404, 401]),
    ]

    @Test(arguments: Backend.all, Caller.allCases)
    func everyRouteAnswersEachCallerAsTheRulesSay(backend: Backend, caller: Caller) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let pair = try await client.closerPair("ot-matrix")
            let member = pair.inviter, partner = pair.acceptor
            let stranger = try await client.signUp("ot-matrix-stranger@example.com")
            let anonymous = try await client.anonymous()
            let capsuleID = client.object(try await client.call(
                .post, "/v1/closer/couples/\(pair.coupleID)/capsules", token: member.accessToken, json: Self.capsule
            ))["id"] as? String ?? ""
            let token: String? = switch caller {
            case .member: member.accessToken
            case .partner: partner.accessToken
            case .stranger: stranger.accessToken
            case .anonymous: anonymous.accessToken
            case .noToken: nil
            }
            for route in Self.routes {
                let path = route.path.replacingOccurrences(of: "{c}", with: pair.coupleID).replacingOccurrences(of: "{k}", with: capsuleID)
                let response = try await client.call(route.method, path, token: token, json: route.body)
                #expect(
                    Int(response.status.code) == route.expected[caller.rawValue],
                    "\(route.method) \(route.path) as \(caller): \(response.status.code) \(String(buffer: response.body).prefix(200))"
                )
            }
        }
    }

    /// The shared callers (`DomainPolicyCaller`) on every route of the table.
    @Test(arguments: Backend.all, DomainPolicyCaller.allCases)
    func everyRouteRefusesTheSharedPolicyCallers(backend: Backend, caller: DomainPolicyCaller) async throws {
        let id = UUID().uuidString.lowercased()
        let operations = Self.routes.map { route in
            (
                method: route.method,
                path: route.path.replacingOccurrences(of: "{c}", with: id).replacingOccurrences(of: "{k}", with: id),
                body: route.body
            )
        }
        try await DomainPolicyCaller.check(operations, app: "closer", as: caller, on: backend)
    }
}
