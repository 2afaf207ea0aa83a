@testable import EraserServer
@testable import KindredServer
@testable import KindredServerCore
import Foundation
import HummingbirdTesting
import HTTPTypes
import KindredServerTestSupport
import KindredStore
import KindredTestSupport
import Testing

/// Every route of Ex-Eraser's contract against each kind of caller, on both backends. Ex-Eraser
/// keeps nothing of one account that another could read, so the table is about who may call at
/// all: an Ex-Eraser account (anonymous, as the app makes them), not another app's.
@Suite struct EraserAuthorizationMatrixTests {
    enum Caller: CaseIterable, CustomTestStringConvertible, Sendable {
        case eraserAccount
        /// A Closer account calling with its own app's header.
        case otherApp
        /// A Closer account's token presented as Ex-Eraser's.
        case otherAppsTokenAsExEraser
        case noToken
        var testDescription: String { "\(self)" }
    }

    struct Route: Sendable {
        var method: HTTPRequest.Method
        var path: String
        var body: String?
        /// The answers for an Ex-Eraser account, another app's caller, its token as Ex-Eraser's, no token.
        var expected: [Caller: String]
    }

    static func refusedToOthers(_ success: String) -> [Caller: String] {
        [.eraserAccount: success, .otherApp: "403 wrong_app", .otherAppsTokenAsExEraser: "401 invalid_token", .noToken: "401 missing_token"]
    }

    static let routes: [Route] = [
        Route(method: .get, path: "/v1/exeraser/plan", expected: refusedToOthers("200")),
        Route(
            method: .post, path: "/v1/analytics/events", body: EraserFixtures.batch([EraserFixtures.event("scan_started")]),
            expected: refusedToOthers("202")
        ),
    ]

    static let contractOperations: Set<String> = ["GET /v1/exeraser/plan", "POST /v1/analytics/events"]

    @Test func theTableCoversEveryOperationOfTheContract() {
        let operations = KindredServerTestSupport.contractOperations(EraserContract.document)
        #expect(operations == Self.contractOperations)
        #expect(Set(Self.routes.map { "\($0.method.rawValue) \($0.path)" }) == Self.contractOperations)
    }

    @Test(arguments: Backend.all, Caller.allCases)
    func everyRouteAnswersEachCallerAsTheRulesSay(backend: Backend, caller: Caller) async throws {
        try await TestApplication.run(on: backend, clock: TestClock(start: EraserFixtures.start)) { application, client in
            let token: String? = switch caller {
            case .eraserAccount: try await client.anonymous(app: "exeraser").accessToken
            case .otherApp, .otherAppsTokenAsExEraser: try await client.signUp("matrix-closer@example.com").accessToken
            case .noToken: nil
            }
            let app = caller == .otherApp ? "closer" : "exeraser"
            for route in Self.routes {
                let response = try await client.call(route.method, route.path, app: app, token: token, json: route.body)
                let expected = (route.expected[caller] ?? "").split(separator: " ").map(String.init)
                let what = "\(route.method) \(route.path) as \(caller)"
                #expect(Int(response.status.code) == Int(expected[0]), "\(what): \(response.text.prefix(300))")
                #expect(response.errorCode == expected.dropFirst().first, "\(what): \(response.text.prefix(300))")
            }
            // Only the Ex-Eraser account's event was stored.
            let stored = try await EraserFixtures.storedEvents(on: application.database)
            #expect(stored.count == (caller == .eraserAccount ? 1 : 0))
        }
    }

    /// The shared callers (`DomainPolicyCaller`: another app's session, another app's token,
    /// a revoked session, a disabled account, no token) on every route of the table.
    @Test(arguments: Backend.all, DomainPolicyCaller.allCases)
    func everyRouteRefusesTheSharedPolicyCallers(backend: Backend, caller: DomainPolicyCaller) async throws {
        let operations = Self.routes.map { (method: $0.method, path: $0.path, body: $0.body) }
        try await DomainPolicyCaller.check(operations, app: "exeraser", as: caller, on: backend)
    }
}
