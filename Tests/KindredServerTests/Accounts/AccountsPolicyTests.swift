import Foundation
import HTTPTypes
import HummingbirdTesting
@testable import KindredServer
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// The accounts domain's authorization matrix: who may call each route that needs a session.
@Suite struct AccountsPolicyTests {
    /// The callers the matrix distinguishes.
    enum Caller: String, CaseIterable, CustomTestStringConvertible {
        case noToken, otherAppsToken, revokedSession, disabledAccount, anonymous, permanent
        var testDescription: String { rawValue }
    }

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

    /// What each caller gets: a status class and, for refusals, the code.
    static func expected(_ caller: Caller) -> (allowed: Bool, status: Int, code: String?) {
        switch caller {
        case .noToken: (false, 401, "missing_token")
        case .otherAppsToken: (false, 401, "invalid_token")
        case .revokedSession: (false, 401, "session_revoked")
        case .disabledAccount: (false, 403, "account_disabled")
        case .anonymous, .permanent: (true, 0, nil)
        }
    }

    @Test(arguments: Caller.allCases)
    func everySessionRouteAdmitsExactlyTheLiveSessionsOfItsApp(caller: Caller) async throws {
        try await TestApplication.run(on: .sqlite, identity: FakeIdentityVerifier()) { application, client in
            for (index, route) in Self.routes.enumerated() {
                let token: String?
                switch caller {
                case .noToken:
                    token = nil
                case .otherAppsToken:
                    token = try await client.anonymous(app: "pulse").accessToken
                case .revokedSession:
                    let session = try await client.anonymous()
                    _ = try await client.call(.post, "/v1/auth/logout", token: session.accessToken)
                    token = session.accessToken
                case .disabledAccount:
                    let session = try await client.anonymous()
                    try await application.database.sql.update("kindred_users").set("disabled_at", to: 1)
                        .where("id", .equal, session.user.id).run()
                    token = session.accessToken
                case .anonymous:
                    token = try await client.anonymous().accessToken
                case .permanent:
                    token = try await client.signUp("permanent-\(index)@example.com").accessToken
                }
                let body = route.2?.replacingOccurrences(of: "new-credential@", with: "new-\(index)-\(caller.rawValue)@")
                let response = try await client.call(route.0, route.1, token: token, json: body)
                let expected = Self.expected(caller)
                if expected.allowed {
                    let linkingTwice = caller == .permanent && route.1 == "/v1/me/credentials/password"
                    if linkingTwice {
                        #expect(response.errorCode == "already_linked", "\(route.0) \(route.1)")
                    } else {
                        #expect((200..<300).contains(response.status.code), "\(route.0) \(route.1): \(response.text)")
                    }
                } else {
                    #expect(response.status.code == expected.status, "\(route.0) \(route.1): \(response.text)")
                    #expect(response.errorCode == expected.code, "\(route.0) \(route.1)")
                }
            }
        }
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
