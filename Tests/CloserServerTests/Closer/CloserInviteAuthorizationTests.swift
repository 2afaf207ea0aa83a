@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredTestSupport
import Testing

/// The invite routes against a real invite: only its inviter reads, completes or cancels it; an
/// acceptor with the code reads only its KDF parameters (anonymous accounts cannot accept);
/// no one else learns it exists.
@Suite struct CloserInviteAuthorizationTests {
    enum Caller: Int, CaseIterable, CustomTestStringConvertible, Sendable {
        case inviter, other, anonymous, noToken
        var testDescription: String { "\(self)" }
    }

    /// Method, path (`{i}` is the invite's code), body, and the status for inviter, another
    /// account, an anonymous account and no token. The cancel comes last.
    static let routes: [(method: HTTPRequest.Method, path: String, body: String?, expected: [Int])] = [
        (.get, "/v1/closer/invites/{i}", nil, [200, 404, 404, 401]),
        (.get, "/v1/closer/invites/{i}/parameters", nil, [200, 200, 403, 401]),
        // Key material may be uploaded again until the invite is accepted (openapi.yaml).
        (.put, "/v1/closer/invites/{i}", "{MATERIAL}", [200, 404, 404, 401]),
        (.delete, "/v1/closer/invites/{i}", nil, [204, 404, 404, 401]),
    ]

    @Test(arguments: Backend.all, Caller.allCases)
    func onlyTheInviterReadsCompletesOrCancelsAnInvite(backend: Backend, caller: Caller) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let inviter = try await client.signUp("invite-owner@example.com")
            let other = try await client.signUp("invite-other@example.com")
            let anonymous = try await client.anonymous()
            let verifier = CloserFixtures.verifier()
            let code = try await client.closerInvite(inviter.accessToken, verifier: verifier)
            let token: String? = switch caller {
            case .inviter: inviter.accessToken
            case .other: other.accessToken
            case .anonymous: anonymous.accessToken
            case .noToken: nil
            }
            for route in Self.routes {
                let body = route.body?.replacingOccurrences(of: "{MATERIAL}", with: CloserFixtures.material(verifier: verifier))
                let response = try await client.call(route.method, route.path.replacingOccurrences(of: "{i}", with: code), token: token, json: body)
                #expect(
                    Int(response.status.code) == route.expected[caller.rawValue],
                    "\(route.method) \(route.path) as \(caller): \(response.status.code) \(String(buffer: response.body).prefix(200))"
                )
            }
            // Only the inviter's cancel removed it: anyone else's attempt left it in place.
            let after = try await client.call(.get, "/v1/closer/invites/\(code)", token: inviter.accessToken)
            #expect(Int(after.status.code) == (caller == .inviter ? 404 : 200))
        }
    }
}
