@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredTestSupport
import Testing

/// Every Closer route against the member (acting on its own resources), the partner (acting on
/// the member's), a stranger, an anonymous account and no token: the seed's rules, as a table,
/// on both backends. The invite routes against a real invite: `CloserInviteAuthorizationTests`.
@Suite struct CloserAuthorizationMatrixTests {
    enum Caller: Int, CaseIterable, CustomTestStringConvertible, Sendable {
        case member, partner, stranger, anonymous, noToken
        var testDescription: String { "\(self)" }
    }

    /// One route: method, path (`{c}` couple, `{d}` date, `{m}` member id, `{t}` thread), body,
    /// and the status for member, partner, stranger, anonymous, no token.
    struct Route: Sendable {
        var method: HTTPRequest.Method
        var path: String
        var body: String?
        var expected: [Int]
    }

    static let wrap = #"{"wrappedCoupleKey":"\#(CloserFixtures.base64(100))","kdfSalt":"\#(CloserFixtures.base64(16))","kdfParams":\#(CloserFixtures.json(CloserFixtures.kdfParams))}"#

    static let routes: [Route] = [
        Route(method: .get, path: "/v1/closer/catalog", expected: [200, 200, 200, 200, 401]),
        Route(method: .get, path: "/v1/closer/packs/everyday/questions?limit=5", expected: [200, 200, 200, 200, 401]),
        Route(method: .get, path: "/v1/closer/questions/everyday-001", expected: [200, 200, 200, 200, 401]),
        Route(method: .get, path: "/v1/closer/couple", expected: [200, 200, 404, 404, 401]),
        Route(method: .get, path: "/v1/closer/couples/{c}", expected: [200, 200, 404, 404, 401]),
        Route(method: .get, path: "/v1/closer/couples/{c}/partner", expected: [200, 200, 404, 404, 401]),
        // The couple's own zone (the default): another zone could move "today" past its 23:00
        // boundary at some hours of the day, and the later POST …/today would assign afresh (201).
        Route(method: .patch, path: "/v1/closer/couples/{c}/settings", body: #"{"timeZone":"America/Chicago"}"#, expected: [200, 200, 404, 404, 401]),
        Route(method: .put, path: "/v1/closer/couples/{c}/recovery-wrap", body: wrap, expected: [200, 200, 404, 404, 401]),
        Route(method: .post, path: "/v1/closer/couples/{c}/encryption-migration", body: wrap, expected: [409, 409, 404, 404, 401]),
        Route(method: .post, path: "/v1/closer/couples/{c}/encryption-migration/complete", expected: [409, 409, 404, 404, 401]),
        Route(method: .get, path: "/v1/closer/users/{m}/devices", expected: [200, 200, 404, 404, 401]),
        Route(method: .put, path: "/v1/closer/devices/extra-device", body: "{PUB}", expected: [201, 201, 201, 201, 401]),
        Route(method: .get, path: "/v1/closer/couples/{c}/today", expected: [200, 200, 404, 404, 401]),
        Route(method: .post, path: "/v1/closer/couples/{c}/today", expected: [200, 200, 404, 404, 401]),
        Route(method: .get, path: "/v1/closer/couples/{c}/days/{d}", expected: [200, 200, 404, 404, 401]),
        Route(method: .get, path: "/v1/closer/couples/{c}/days/{d}/answers/{m}", expected: [200, 200, 404, 404, 401]),
        Route(method: .put, path: "/v1/closer/couples/{c}/days/{d}/answers/{m}", body: "{SEALED}", expected: [409, 403, 404, 404, 401]),
        Route(method: .patch, path: "/v1/closer/couples/{c}/days/{d}/answers/{m}", body: #"{"answerKeyReleased":true}"#, expected: [200, 403, 404, 404, 401]),
        Route(method: .put, path: "/v1/closer/couples/{c}/days/{d}/answers/{m}/encrypted", body: #"{"encryptedText":"enc:v1:QUJD"}"#, expected: [409, 403, 404, 404, 401]),
        Route(
            method: .post, path: "/v1/closer/couples/{c}/days/{d}/answers/{m}/release-keys",
            body: #"{"keys":[{"recipientDeviceId":"b-phone","encryptedAnswerKey":"\#(CloserFixtures.keybox())"}]}"#, expected: [409, 403, 404, 404, 401]
        ),
        Route(method: .get, path: "/v1/closer/couples/{c}/days/{d}/release-keys?deviceId=a-phone", expected: [200, 200, 404, 404, 401]),
        Route(method: .get, path: "/v1/closer/couples/{c}/history", expected: [200, 200, 404, 404, 401]),
        Route(method: .post, path: "/v1/closer/couples/{c}/threads", body: #"{"questionId":"fun-001"}"#, expected: [201, 201, 404, 404, 401]),
        Route(method: .get, path: "/v1/closer/couples/{c}/threads", expected: [200, 200, 404, 404, 401]),
        Route(method: .get, path: "/v1/closer/couples/{c}/threads/{t}", expected: [200, 200, 404, 404, 401]),
        Route(method: .put, path: "/v1/closer/couples/{c}/threads/{t}/messages/{m}", body: "{MESSAGE}", expected: [201, 403, 404, 404, 401]),
        Route(method: .patch, path: "/v1/closer/couples/{c}/threads/{t}/messages/{m}", body: #"{"answerKeyReleased":true}"#, expected: [200, 403, 404, 404, 401]),
        Route(
            method: .post, path: "/v1/closer/couples/{c}/threads/{t}/messages/{m}/release-keys",
            body: #"{"keys":[{"recipientDeviceId":"b-phone","encryptedAnswerKey":"\#(CloserFixtures.keybox())"}]}"#, expected: [409, 403, 404, 404, 401]
        ),
        Route(method: .get, path: "/v1/closer/couples/{c}/threads/{t}/release-keys?deviceId=a-phone", expected: [200, 200, 404, 404, 401]),
        // Dates and the bucket list (`{p}` a plan, `{b}` a bucket item, both the member's).
        Route(method: .get, path: "/v1/closer/date-ideas", expected: [200, 200, 200, 200, 401]),
        Route(method: .get, path: "/v1/closer/couples/{c}/dates/deck", expected: [200, 200, 404, 404, 401]),
        Route(method: .put, path: "/v1/closer/couples/{c}/dates/swipes/home-001", body: #"{"action":"love"}"#, expected: [200, 200, 404, 404, 401]),
        Route(method: .get, path: "/v1/closer/couples/{c}/dates/matches", expected: [200, 200, 404, 404, 401]),
        Route(method: .get, path: "/v1/closer/couples/{c}/dates/preferences", expected: [200, 200, 404, 404, 401]),
        Route(method: .put, path: "/v1/closer/couples/{c}/dates/preferences", body: #"{"preferences":[]}"#, expected: [200, 200, 404, 404, 401]),
        Route(method: .post, path: "/v1/closer/couples/{c}/dates/plans", body: #"{"title":"Matrix"}"#, expected: [201, 201, 404, 404, 401]),
        Route(method: .get, path: "/v1/closer/couples/{c}/dates/plans", expected: [200, 200, 404, 404, 401]),
        Route(method: .get, path: "/v1/closer/couples/{c}/dates/plans/{p}", expected: [200, 200, 404, 404, 401]),
        Route(method: .patch, path: "/v1/closer/couples/{c}/dates/plans/{p}", body: #"{"notes":"matrix"}"#, expected: [200, 200, 404, 404, 401]),
        Route(method: .get, path: "/v1/closer/couples/{c}/bucket", expected: [200, 200, 404, 404, 401]),
        Route(method: .post, path: "/v1/closer/couples/{c}/bucket", body: #"{"title":"Matrix"}"#, expected: [201, 201, 404, 404, 401]),
        Route(method: .patch, path: "/v1/closer/couples/{c}/bucket/{b}", body: #"{"completed":true}"#, expected: [200, 200, 404, 404, 401]),
        Route(method: .delete, path: "/v1/closer/couples/{c}/bucket/{b}", expected: [204, 204, 404, 404, 401]),
        // Games (`{g}` a session the member started; the caller commits, then opens before the other has committed).
        Route(method: .get, path: "/v1/closer/games/packs", expected: [200, 200, 200, 200, 401]),
        Route(method: .get, path: "/v1/closer/couples/{c}/games/packs/tot-everyday", expected: [200, 200, 404, 404, 401]),
        Route(method: .post, path: "/v1/closer/couples/{c}/games", body: #"{"kind":"wheel","packId":"wheel-evening"}"#, expected: [201, 201, 404, 404, 401]),
        Route(method: .get, path: "/v1/closer/couples/{c}/games", expected: [200, 200, 404, 404, 401]),
        Route(method: .get, path: "/v1/closer/couples/{c}/games/{g}", expected: [200, 200, 404, 404, 401]),
        Route(
            method: .put, path: "/v1/closer/couples/{c}/games/{g}/rounds/1/commitment",
            body: #"{"commitment":"sha256:\#(CloserFixtures.base64url(32))"}"#, expected: [200, 200, 404, 404, 401]
        ),
        Route(
            method: .put, path: "/v1/closer/couples/{c}/games/{g}/rounds/1/opening",
            body: #"{"ciphertext":"enc:v1:\#(CloserFixtures.base64(60))","nonce":"\#(CloserFixtures.base64(32))"}"#, expected: [409, 409, 404, 404, 401]
        ),
        // Challenges (`{h}` an instance the member joined; the partner joins another one).
        Route(method: .get, path: "/v1/closer/challenges", expected: [200, 200, 200, 200, 401]),
        Route(method: .get, path: "/v1/closer/couples/{c}/challenges", expected: [200, 200, 404, 404, 401]),
        Route(method: .get, path: "/v1/closer/couples/{c}/challenges/{h}", expected: [200, 200, 404, 404, 401]),
        Route(method: .put, path: "/v1/closer/couples/{c}/challenges/{h}/days/1", expected: [200, 200, 404, 404, 401]),
        Route(method: .post, path: "/v1/closer/couples/{c}/challenges", body: #"{"challengeId":"listen-5"}"#, expected: [201, 201, 404, 404, 401]),
        Route(method: .delete, path: "/v1/closer/couples/{c}/challenges/{h}", expected: [200, 200, 404, 404, 401]),
        Route(method: .post, path: "/v1/closer/invites", expected: [409, 409, 201, 403, 401]),
        Route(method: .get, path: "/v1/closer/invites/ZZZZZZ", expected: [404, 404, 404, 404, 401]),
        Route(method: .get, path: "/v1/closer/invites/ZZZZZZ/parameters", expected: [404, 404, 404, 403, 401]),
        Route(method: .post, path: "/v1/closer/invites/ZZZZZZ/accept", body: "{}", expected: [404, 404, 404, 403, 401]),
        Route(method: .post, path: "/v1/closer/reminders/gentle", expected: [200, 200, 404, 403, 401]),
        Route(method: .delete, path: "/v1/closer/devices/a-phone", expected: [204, 404, 404, 404, 401]),
        Route(method: .post, path: "/v1/closer/couples/{c}/leave", expected: [204, 204, 404, 403, 401]),
    ]

    @Test(arguments: Backend.all, Caller.allCases)
    func everyRouteAnswersEachCallerAsTheRulesSay(backend: Backend, caller: Caller) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let pair = try await client.closerPair("matrix")
            let member = pair.inviter, partner = pair.acceptor
            let stranger = try await client.signUp("matrix-stranger@example.com")
            let anonymous = try await client.anonymous()
            let today = client.object(try await client.call(.post, "/v1/closer/couples/\(pair.coupleID)/today", token: member.accessToken))
            let date = today["date"] as? String ?? ""
            for (token, device) in [(member.accessToken, "a-phone"), (partner.accessToken, "b-phone")] {
                _ = try await client.call(.put, "/v1/closer/devices/\(device)", token: token, json: #"{"publicKey":"\#(try CloserFixtures.publicKey())","platform":"ios"}"#)
            }
            let answered = try await client.call(
                .put, "/v1/closer/couples/\(pair.coupleID)/days/\(date)/answers/\(member.user.id)", token: member.accessToken,
                json: CloserFixtures.sealedAnswer()
            )
            #expect(answered.status == .created)
            let thread = client.object(try await client.call(
                .post, "/v1/closer/couples/\(pair.coupleID)/threads", token: member.accessToken, json: #"{"questionId":"values-001"}"#
            ))
            let threadID = thread["id"] as? String ?? ""
            let planID = client.object(try await client.call(
                .post, "/v1/closer/couples/\(pair.coupleID)/dates/plans", token: member.accessToken, json: #"{"title":"Ours"}"#
            ))["id"] as? String ?? ""
            let itemID = client.object(try await client.call(
                .post, "/v1/closer/couples/\(pair.coupleID)/bucket", token: member.accessToken, json: #"{"title":"Ours"}"#
            ))["id"] as? String ?? ""
            let gameID = client.object(try await client.call(
                .post, "/v1/closer/couples/\(pair.coupleID)/games", token: member.accessToken, json: #"{"kind":"this_or_that","packId":"tot-everyday"}"#
            ))["id"] as? String ?? ""
            let challengeID = client.object(try await client.call(
                .post, "/v1/closer/couples/\(pair.coupleID)/challenges", token: member.accessToken, json: #"{"challengeId":"gratitude-7"}"#
            ))["id"] as? String ?? ""
            let token: String? = switch caller {
            case .member: member.accessToken
            case .partner: partner.accessToken
            case .stranger: stranger.accessToken
            case .anonymous: anonymous.accessToken
            case .noToken: nil
            }
            let message = #"{"schemaVersion":3,"encryptedPayload":"sealed:v1:\#(CloserFixtures.base64url(200))","commitmentHash":"sha256:\#(CloserFixtures.base64url(32))","commitmentSeal":"enc:v1:\#(CloserFixtures.base64(60))"}"#
            let publicKey = #"{"publicKey":"\#(try CloserFixtures.publicKey())","platform":"android"}"#
            for route in Self.routes {
                let path = route.path.replacingOccurrences(of: "{c}", with: pair.coupleID).replacingOccurrences(of: "{d}", with: date)
                    .replacingOccurrences(of: "{m}", with: member.user.id).replacingOccurrences(of: "{t}", with: threadID)
                    .replacingOccurrences(of: "{p}", with: planID).replacingOccurrences(of: "{b}", with: itemID)
                    .replacingOccurrences(of: "{g}", with: gameID).replacingOccurrences(of: "{h}", with: challengeID)
                let body = route.body.map {
                    $0.replacingOccurrences(of: "{SEALED}", with: CloserFixtures.sealedAnswer()).replacingOccurrences(of: "{MESSAGE}", with: message)
                        .replacingOccurrences(of: "{PUB}", with: publicKey)
                }
                let response = try await client.call(route.method, path, token: token, json: body)
                #expect(
                    Int(response.status.code) == route.expected[caller.rawValue],
                    "\(route.method) \(route.path) as \(caller): \(response.status.code) \(String(buffer: response.body).prefix(200))"
                )
            }
        }
    }

    /// The shared callers (`DomainPolicyCaller`: another app's session, another app's token,
    /// a revoked session, a disabled account, no token) on every route of the table.
    @Test(arguments: Backend.all, DomainPolicyCaller.allCases)
    func everyRouteRefusesTheSharedPolicyCallers(backend: Backend, caller: DomainPolicyCaller) async throws {
        let message = #"{"schemaVersion":3,"encryptedPayload":"sealed:v1:\#(CloserFixtures.base64url(200))","commitmentHash":"sha256:\#(CloserFixtures.base64url(32))","commitmentSeal":"enc:v1:\#(CloserFixtures.base64(60))"}"#
        let publicKey = #"{"publicKey":"\#(try CloserFixtures.publicKey())","platform":"android"}"#
        let id = UUID().uuidString.lowercased()
        let operations = Self.routes.map { route in
            (
                method: route.method,
                path: route.path.replacingOccurrences(of: "{c}", with: id).replacingOccurrences(of: "{d}", with: "2026-01-05")
                    .replacingOccurrences(of: "{m}", with: id).replacingOccurrences(of: "{t}", with: id)
                    .replacingOccurrences(of: "{p}", with: id).replacingOccurrences(of: "{b}", with: id)
                    .replacingOccurrences(of: "{g}", with: id).replacingOccurrences(of: "{h}", with: id),
                body: route.body.map {
                    $0.replacingOccurrences(of: "{SEALED}", with: CloserFixtures.sealedAnswer()).replacingOccurrences(of: "{MESSAGE}", with: message)
                        .replacingOccurrences(of: "{PUB}", with: publicKey)
                }
            )
        }
        try await DomainPolicyCaller.check(operations, app: "closer", as: caller, on: backend)
    }
}
