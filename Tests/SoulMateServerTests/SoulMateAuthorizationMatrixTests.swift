@testable import KindredServer
@testable import KindredServerCore
@testable import SoulMateServer
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredCrypto
import KindredTestSupport
import SQLKit
import Testing

/// Every route of SoulMate's contract against each kind of caller, as a table, on both backends.
///
/// The world: Ada (`sender`) and Bea (`partner`) are paired (Ada asked, Bea accepted); Ada sent
/// Bea an envelope, shared a location and asked to unpair; Bea shared a location. Cleo
/// (`requester`) asked Dan (`recipient`) to pair, and so did a suitor, whom the table never
/// calls as. Sam (`stranger`) is a SoulMate account in none of it. Each caller runs the table in
/// order on a fresh world, so a row may see what an earlier row of the same caller changed.
@Suite struct SoulMateAuthorizationMatrixTests {
    enum Caller: Int, CaseIterable, CustomTestStringConvertible, Sendable {
        case sender, partner, requester, recipient, stranger
        /// A Closer account calling with its own app's header.
        case otherApp
        /// A Closer account's token presented as SoulMate's.
        case otherAppsTokenAsSoulMate
        case noToken
        var testDescription: String { "\(self)" }
    }

    /// One route: method, path, body (placeholders below), the answer ("status" or "status code")
    /// for sender, partner, requester, recipient and stranger; then for the other app's caller,
    /// its token sent as SoulMate's, and no token.
    ///
    /// Placeholders: `{A}` the sender's id, `{B}` the partner's, `{AB}` their accepted pair
    /// request, `{R}` Cleo's request to Dan, `{Q}` the suitor's request to Dan, `{U}` Ada's unpair
    /// request, `{E}` Ada's envelope to Bea, `{T}` the pair code of a bystander, `{KEY}` the
    /// caller's own public key, `{NEW}` a fresh message id, `{SEALED}` a sealed payload.
    struct Route: Sendable {
        var method: HTTPRequest.Method
        var path: String
        var body: String?
        var expected: [String]
        var otherApp = "403 wrong_app"
        var otherAppsTokenAsSoulMate = "401 invalid_token"
        var noToken = "401 missing_token"

        func answer(for caller: Caller) -> String {
            switch caller {
            case .otherApp: otherApp
            case .otherAppsTokenAsSoulMate: otherAppsTokenAsSoulMate
            case .noToken: noToken
            default: expected[caller.rawValue]
            }
        }
    }

    static let everyone200 = ["200", "200", "200", "200", "200"]
    static let notPaired = "404 not_paired"
    static let noRequest = "404 pair_request_not_found"
    static let noUnpair = "404 unpair_request_not_found"

    static let routes: [Route] = [
        Route(
            method: .get, path: "/v1/soulmate/route?installationId=phone-1", expected: everyone200,
            otherAppsTokenAsSoulMate: "200", noToken: "200"
        ),
        // The session lock.
        Route(method: .get, path: "/v1/soulmate/session-lock", expected: Array(repeating: "404 no_session_lock", count: 5)),
        Route(method: .put, path: "/v1/soulmate/session-lock", body: SoulMateFixtures.lock("phone-1"), expected: everyone200),
        Route(method: .get, path: "/v1/soulmate/session-lock", expected: everyone200),
        Route(
            method: .delete, path: "/v1/soulmate/session-lock?installationId=tablet-9",
            expected: Array(repeating: "409 session_locked", count: 5)
        ),
        Route(method: .delete, path: "/v1/soulmate/session-lock?installationId=phone-1", expected: Array(repeating: "204", count: 5)),
        Route(method: .post, path: "/v1/soulmate/session-lock/takeover", body: SoulMateFixtures.takeover("phone-2"), expected: everyone200),
        // Pair codes and requests.
        Route(method: .get, path: "/v1/soulmate/pair-code", expected: everyone200),
        Route(method: .post, path: "/v1/soulmate/pair-code/rotate", expected: everyone200),
        Route(method: .get, path: "/v1/soulmate/pair-requests", expected: everyone200),
        Route(
            method: .post, path: "/v1/soulmate/pair-requests", body: #"{"code":"{T}"}"#,
            expected: ["409 already_paired", "409 already_paired", "201", "201", "201"]
        ),
        // The pair, keys and locations.
        Route(method: .get, path: "/v1/soulmate/pair", expected: ["200", "200", notPaired, notPaired, notPaired]),
        Route(
            method: .get, path: "/v1/soulmate/identity-key",
            expected: ["200", "200", "404 no_identity_key", "404 no_identity_key", "404 no_identity_key"]
        ),
        Route(method: .put, path: "/v1/soulmate/identity-key", body: #"{"publicKey":"{KEY}"}"#, expected: everyone200),
        Route(method: .get, path: "/v1/soulmate/pair/partner-key", expected: ["200", "200", notPaired, notPaired, notPaired]),
        Route(
            method: .put, path: "/v1/soulmate/pair/location", body: #"{"ciphertext":"{SEALED}"}"#,
            expected: ["200", "200", notPaired, notPaired, notPaired]
        ),
        Route(method: .get, path: "/v1/soulmate/pair/partner-location", expected: ["200", "200", notPaired, notPaired, notPaired]),
        // The relay.
        Route(
            method: .post, path: "/v1/soulmate/messages", body: envelope(to: "{B}"),
            expected: ["201", "403 not_partner", notPaired, notPaired, notPaired]
        ),
        Route(
            method: .post, path: "/v1/soulmate/messages", body: envelope(to: "{A}"),
            expected: ["403 not_partner", "201", notPaired, notPaired, notPaired]
        ),
        Route(method: .get, path: "/v1/soulmate/messages", expected: everyone200),
        Route(method: .post, path: "/v1/soulmate/messages/ack", body: #"{"ids":["{E}"]}"#, expected: everyone200),
        // Unpairing: Ada asked.
        Route(
            method: .post, path: "/v1/soulmate/unpair-requests",
            expected: ["409 unpair_request_exists", "409 unpair_request_exists", notPaired, notPaired, notPaired]
        ),
        Route(
            method: .post, path: "/v1/soulmate/unpair-requests/{U}/leave",
            expected: ["422 unpair_not_due", "403 not_requester", noUnpair, noUnpair, noUnpair]
        ),
        Route(
            method: .post, path: "/v1/soulmate/unpair-requests/{U}/reject",
            expected: ["403 not_recipient", "200", noUnpair, noUnpair, noUnpair]
        ),
        Route(
            method: .post, path: "/v1/soulmate/unpair-requests/{U}/accept",
            expected: ["403 not_recipient", "409 unpair_request_closed", noUnpair, noUnpair, noUnpair]
        ),
        Route(
            method: .post, path: "/v1/soulmate/unpair-requests/{U}/cancel",
            expected: ["200", "403 not_requester", noUnpair, noUnpair, noUnpair]
        ),
        // Answering pair requests (last: Dan's acceptance pairs him).
        Route(
            method: .post, path: "/v1/soulmate/pair-requests/{AB}/accept",
            expected: ["403 not_recipient", "409 pair_request_closed", noRequest, noRequest, noRequest]
        ),
        Route(method: .post, path: "/v1/soulmate/pair-requests/{Q}/reject", expected: [noRequest, noRequest, noRequest, "200", noRequest]),
        Route(
            method: .post, path: "/v1/soulmate/pair-requests/{R}/accept",
            expected: [noRequest, noRequest, "403 not_recipient", "200", noRequest]
        ),
        Route(
            method: .post, path: "/v1/soulmate/pair-requests/{R}/reject",
            expected: [noRequest, noRequest, "403 not_recipient", "409 pair_request_closed", noRequest]
        ),
        Route(
            method: .post, path: "/v1/soulmate/pair-requests/{R}/cancel",
            expected: [noRequest, noRequest, "200", "403 not_requester", noRequest]
        ),
        Route(method: .post, path: "/v1/soulmate/pair-requests/no-such-request/accept", expected: Array(repeating: noRequest, count: 5)),
        Route(method: .post, path: "/v1/soulmate/unpair-requests/no-such-request/accept", expected: Array(repeating: noUnpair, count: 5)),
    ]

    static func envelope(to recipient: String) -> String {
        #"{"id":"{NEW}","recipientId":"\#(recipient)","sentAt":"2026-01-01T00:00:00Z","keyVersion":1,"ciphertext":"{SEALED}"}"#
    }

    /// The contract's operations, each of which the table calls at least once.
    static let contractOperations: Set<String> = [
        "GET /v1/soulmate/route", "GET /v1/soulmate/session-lock", "PUT /v1/soulmate/session-lock",
        "DELETE /v1/soulmate/session-lock", "POST /v1/soulmate/session-lock/takeover", "GET /v1/soulmate/pair-code",
        "POST /v1/soulmate/pair-code/rotate", "POST /v1/soulmate/pair-requests", "GET /v1/soulmate/pair-requests",
        "POST /v1/soulmate/pair-requests/{requestId}/accept", "POST /v1/soulmate/pair-requests/{requestId}/reject",
        "POST /v1/soulmate/pair-requests/{requestId}/cancel", "GET /v1/soulmate/pair", "POST /v1/soulmate/unpair-requests",
        "POST /v1/soulmate/unpair-requests/{requestId}/accept", "POST /v1/soulmate/unpair-requests/{requestId}/reject",
        "POST /v1/soulmate/unpair-requests/{requestId}/cancel", "POST /v1/soulmate/unpair-requests/{requestId}/leave",
        "PUT /v1/soulmate/identity-key", "GET /v1/soulmate/identity-key", "GET /v1/soulmate/pair/partner-key",
        "PUT /v1/soulmate/pair/location", "GET /v1/soulmate/pair/partner-location", "POST /v1/soulmate/messages",
        "GET /v1/soulmate/messages", "POST /v1/soulmate/messages/ack",
    ]

    @Test func theTableCoversEveryOperationOfTheContract() throws {
        let operations = KindredServerTestSupport.contractOperations(SoulMateContract.document)
        #expect(operations == Self.contractOperations)
        let called = Set(Self.routes.map { route in
            let path = String(route.path.split(separator: "?").first ?? "")
                .replacingOccurrences(of: #"/(\{[A-Z]+\}|no-such-request)/"#, with: "/{requestId}/", options: .regularExpression)
            return "\(route.method.rawValue) \(path)"
        })
        #expect(called == Self.contractOperations)
    }

    /// The world every caller runs the table in.
    struct World: Sendable {
        var ada: SoulMateMember, bea: SoulMateMember, cleo: SoulMateMember, dan: SoulMateMember, sam: SoulMateMember
        var closer: SessionBody
        var ab: String, r: String, q: String, u: String, e: String, bystanderCode: String
    }

    static func world(_ client: any TestClientProtocol) async throws -> World {
        let ada = try await client.soulmateMember("ada", first: "Ada", last: "Lovelace")
        let bea = try await client.soulmateMember("bea", first: "Bea", last: "Brown")
        let cleo = try await client.soulmateMember("cleo", first: "Cleo", last: "Clark")
        let dan = try await client.soulmateMember("dan", first: "Dan", last: "Dale")
        let sam = try await client.soulmateMember("sam", first: "Sam", last: "Stone")
        let suitor = try await client.soulmateMember("suitor", first: "Sue", last: "Suitor")
        let bystander = try await client.soulmateMember("bystander", first: "Bo", last: "Stander")
        let closer = try await client.signUp("matrix-closer-\(UUID().uuidString.prefix(8))@example.com")
        let couple = try await client.soulmateCouple(ada, bea)
        let sent = try await client.sendMessage("hello from the matrix", from: ada, to: bea)
        #expect(sent.response.status == .created, "\(sent.response.text)")
        for (member, partner) in [(ada, bea), (bea, ada)] {
            let located = try await client.soulmate(
                .put, "/v1/soulmate/pair/location", token: member.token,
                json: #"{"ciphertext":"\#(try SoulMateFixtures.seal("51.5,-0.1", from: member, to: partner))"}"#
            )
            #expect(located.status == .ok, "\(located.text)")
        }
        let r = try await client.pendingRequest(from: cleo, to: dan)
        let q = try await client.pendingRequest(from: suitor, to: dan)
        let unpair = try await client.soulmate(.post, "/v1/soulmate/unpair-requests", token: ada.token)
        #expect(unpair.status == .created, "\(unpair.text)")
        return World(
            ada: ada, bea: bea, cleo: cleo, dan: dan, sam: sam, closer: closer, ab: couple.requestID, r: r, q: q,
            u: client.object(unpair)["id"] as? String ?? "", e: sent.id, bystanderCode: try await client.pairCode(bystander)
        )
    }

    @Test(arguments: Backend.all, Caller.allCases)
    func everyRouteAnswersEachCallerAsTheRulesSay(backend: Backend, caller: Caller) async throws {
        try await TestApplication.run(on: backend) { application, client in
            let world = try await Self.world(client)
            let member: SoulMateMember? = switch caller {
            case .sender: world.ada
            case .partner: world.bea
            case .requester: world.cleo
            case .recipient: world.dan
            case .stranger: world.sam
            case .otherApp, .otherAppsTokenAsSoulMate, .noToken: nil
            }
            let token: String? = switch caller {
            case .otherApp, .otherAppsTokenAsSoulMate: world.closer.accessToken
            case .noToken: nil
            default: member?.token
            }
            let app = caller == .otherApp ? "closer" : "soulmate"
            let sealed = try SoulMateFixtures.seal("matrix", from: world.ada, to: world.bea)
            for route in Self.routes {
                let substitutions = [
                    "{AB}": world.ab, "{A}": world.ada.id, "{B}": world.bea.id, "{R}": world.r, "{Q}": world.q, "{U}": world.u,
                    "{E}": world.e, "{T}": world.bystanderCode, "{KEY}": member?.publicKey ?? SoulMateIdentity().publicKeyBase64,
                    "{NEW}": SoulMateFixtures.messageID(), "{SEALED}": sealed,
                ]
                var path = route.path, body = route.body
                for (placeholder, value) in substitutions {
                    path = path.replacingOccurrences(of: placeholder, with: value)
                    body = body?.replacingOccurrences(of: placeholder, with: value)
                }
                let response = try await client.call(route.method, path, app: app, token: token, json: body)
                let expected = route.answer(for: caller).split(separator: " ").map(String.init)
                let what = "\(route.method) \(route.path) as \(caller)"
                #expect(Int(response.status.code) == Int(expected[0]), "\(what): \(response.status.code) \(response.text.prefix(200))")
                #expect(response.errorCode == expected.dropFirst().first, "\(what): \(response.text.prefix(200))")
            }
            // Only the recipient's acknowledgement deleted Ada's envelope.
            let left = try await SoulMateFixtures.envelopeIDs(on: application.database)
            #expect(left.contains(world.e) == (caller != .partner))
        }
    }

    @Test(arguments: Backend.all)
    func aStrangerSeesNothingOfThePairAndAcknowledgesNothing(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { application, client in
            let world = try await Self.world(client)
            let sam = world.sam
            // Sam's inbox is empty and acknowledging Bea's envelope deletes nothing.
            #expect(try await client.inbox(sam).isEmpty)
            let ack = try await client.soulmate(.post, "/v1/soulmate/messages/ack", token: sam.token, json: #"{"ids":["\#(world.e)"]}"#)
            #expect(ack.status == .ok)
            #expect(client.object(ack)["deleted"] as? Int == 0)
            // Neither does the sender's own acknowledgement.
            let senders = try await client.soulmate(.post, "/v1/soulmate/messages/ack", token: world.ada.token, json: #"{"ids":["\#(world.e)"]}"#)
            #expect(client.object(senders)["deleted"] as? Int == 0)
            let beas = try await client.inbox(world.bea)
            #expect(beas.map { $0["id"] as? String } == [world.e])
            // The pair's key, location and requests stay out of reach.
            expectRefusal(try await client.soulmate(.get, "/v1/soulmate/pair/partner-key", token: sam.token), 404, "not_paired")
            expectRefusal(try await client.soulmate(.get, "/v1/soulmate/pair/partner-location", token: sam.token), 404, "not_paired")
            expectRefusal(
                try await client.soulmate(.post, "/v1/soulmate/pair-requests/\(world.r)/accept", token: sam.token), 404, "pair_request_not_found"
            )
            let boxes = client.object(try await client.soulmate(.get, "/v1/soulmate/pair-requests", token: sam.token))
            #expect((boxes["incoming"] as? [Any])?.isEmpty == true)
            #expect((boxes["outgoing"] as? [Any])?.isEmpty == true)
            // Nothing changed for the pair.
            #expect(try await SoulMateFixtures.envelopeIDs(on: application.database) == [world.e])
        }
    }

    /// The shared callers (`DomainPolicyCaller`: another app's session, another app's token,
    /// a revoked session, a disabled account, no token) on every route of the table that needs
    /// a session.
    @Test(arguments: Backend.all, DomainPolicyCaller.allCases)
    func everyRouteRefusesTheSharedPolicyCallers(backend: Backend, caller: DomainPolicyCaller) async throws {
        // A pair code of the contract's length (a made-up id would break its `maxLength`, which is
        // checked before the caller).
        let values = ["{KEY}": SoulMateIdentity().publicKeyBase64, "{NEW}": SoulMateFixtures.messageID(), "{T}": "000000"]
        let operations = Self.routes.filter { $0.noToken == "401 missing_token" }.map {
            (method: $0.method, path: DomainPolicyCaller.filled($0.path, values), body: $0.body.map { DomainPolicyCaller.filled($0, values) })
        }
        try await DomainPolicyCaller.check(operations, app: "soulmate", as: caller, on: backend)
    }
}
