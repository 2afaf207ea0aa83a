@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// `GET /v1/closer/invites/{code}/parameters`: at most 20 look-ups per caller per rolling hour,
/// counted whatever the answer (so codes cannot be enumerated); the 21st is 429 with
/// `Retry-After` until the oldest look-up leaves the hour; other callers are not affected.
@Suite struct CloserInviteParametersLimitTests {
    @Test(arguments: Backend.all)
    func theTwentyFirstLookupInAnHourIsRefused(backend: Backend) async throws {
        let clock = TestClock(start: try instant("2026-04-01T08:00:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { _, client in
            let inviter = try await client.signUp("params-inviter@example.com")
            let code = try await client.closerInvite(inviter.accessToken, verifier: CloserFixtures.verifier())
            let seeker = try await client.signUp("params-seeker@example.com")
            // 10 look-ups of the real code and 10 of unknown codes, one second apart.
            for index in 0..<20 {
                let path = index % 2 == 0 ? "/v1/closer/invites/\(code)/parameters" : "/v1/closer/invites/ZZZZZ\(index % 10)/parameters"
                let answer = try await client.call(.get, path, token: seeker.accessToken)
                #expect(answer.status == (index % 2 == 0 ? .ok : .notFound), "look-up \(index + 1)")
                clock.advance(by: .seconds(1))
            }
            // 20 seconds after the first: the 21st waits for the first to leave the hour.
            let refused = try await client.call(.get, "/v1/closer/invites/\(code)/parameters", token: seeker.accessToken)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.errorCode == "rate_limited")
            #expect(refused.headers[.retryAfter] == "3580")
            // Refused look-ups are not counted, and another caller has its own 20.
            let other = try await client.signUp("params-other@example.com")
            #expect(try await client.call(.get, "/v1/closer/invites/\(code)/parameters", token: other.accessToken).status == .ok)

            // An hour on, the access token has expired: sign in again.
            clock.advance(by: .seconds(3579))
            let token = try await client.logIn("params-seeker@example.com").decode(SessionBody.self).accessToken
            #expect(try await client.call(.get, "/v1/closer/invites/\(code)/parameters", token: token).status == .tooManyRequests)
            clock.advance(by: .seconds(1))
            let again = try await client.call(.get, "/v1/closer/invites/\(code)/parameters", token: token)
            #expect(again.status == .ok)
            #expect(client.object(again)["code"] as? String == code)
            // The hour is full again at once: the second look-up leaves it a second later.
            let full = try await client.call(.get, "/v1/closer/invites/\(code)/parameters", token: token)
            #expect(full.status == .tooManyRequests)
            #expect(full.headers[.retryAfter] == "1")
        }
    }
}
