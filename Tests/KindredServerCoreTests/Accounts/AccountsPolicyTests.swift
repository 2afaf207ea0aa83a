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

/// The accounts domain's authorization matrix: who may call each route that needs a session.
@Suite struct AccountsPolicyTests {
    /// The routes that need a session, with a valid body.
    static let routes: [(HTTPRequest.Method, String, String?)] = [
        (.get, "/v1/me", nil),
        (.patch, "/v1/me", #"{"displayName":"x"}"#),
        (.delete, "/v1/me", nil),
        (.get, "/v1/me/export", nil),
        (.post, "/v1/auth/logout", nil),
        (.post, "/v1/me/credentials/password", #"{"email":"new-credential@example.com","password":"long enough"}"#),
        (.post, "/v1/me/credentials/apple", #"{"idToken":"apple|new-subject|"}"#),
        (.post, "/v1/me/credentials/google", #"{"idToken":"google|new-subject|"}"#),
    ]

    @Test(arguments: PolicyCaller.allCases)
    func everySessionRouteAdmitsExactlyTheLiveSessionsOfItsApp(caller: PolicyCaller) async throws {
        try await PolicyCaller.check(Self.routes, as: caller, alreadyLinked: "/v1/me/credentials/password")
    }

    @Test func irreversibleActionsRequireAPermanentAccount() throws {
        func user(anonymous: Bool) -> AuthenticatedUser {
            AuthenticatedUser(
                user: UserRecord(
                    id: "u", app: "closer", isAnonymous: anonymous, displayName: nil, firstName: nil, lastName: nil,
                    photoUrl: nil, timeZone: nil, locale: nil, disabledAt: nil, createdAt: 0, updatedAt: 0
                ),
                sessionID: "s"
            )
        }
        #expect(throws: KindredError.upgradeRequired) { try AccountsController.requirePermanent(user(anonymous: true)) }
        try AccountsController.requirePermanent(user(anonymous: false))
        #expect(KindredError.upgradeRequired.status == .forbidden)
        #expect(KindredError.upgradeRequired.code == "upgrade_required")
    }
}
