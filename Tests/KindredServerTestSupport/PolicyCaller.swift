import BillingServer
import KindredServer
import KindredServerCore
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredTestSupport
import SQLKit
import Testing

/// The callers every domain's authorization matrix distinguishes, and the shared check that
/// runs a domain's session routes as each of them.
package enum PolicyCaller: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case noToken, otherAppsToken, revokedSession, disabledAccount, anonymous, permanent
    package var testDescription: String { rawValue }

    /// What the caller gets on a route that needs a live session of its app.
    package var expected: (allowed: Bool, status: Int, code: String?) {
        switch self {
        case .noToken: (false, 401, "missing_token")
        case .otherAppsToken: (false, 401, "invalid_token")
        case .revokedSession: (false, 401, "session_revoked")
        case .disabledAccount: (false, 403, "account_disabled")
        case .anonymous, .permanent: (true, 0, nil)
        }
    }

    /// A fresh access token of this kind of caller (nil for `noToken`).
    package func token(index: Int, application: TestApplication, client: any TestClientProtocol) async throws -> String? {
        switch self {
        case .noToken:
            return nil
        case .otherAppsToken:
            return try await client.anonymous(app: "pulse").accessToken
        case .revokedSession:
            let session = try await client.anonymous()
            _ = try await client.call(.post, "/v1/auth/logout", token: session.accessToken)
            return session.accessToken
        case .disabledAccount:
            let session = try await client.anonymous()
            try await application.database.sql.update("kindred_users").set("disabled_at", to: 1)
                .where("id", .equal, session.user.id).run()
            return session.accessToken
        case .anonymous:
            return try await client.anonymous().accessToken
        case .permanent:
            return try await client.signUp("permanent-\(index)-\(UUID().uuidString.prefix(8))@example.com").accessToken
        }
    }

    /// Calls every route as this caller (a fresh caller per route) and checks the answer.
    /// - Parameter alreadyLinked: a route a permanent caller is expected to get 409 `already_linked` from.
    package static func check(
        _ routes: [(HTTPRequest.Method, String, String?)], as caller: PolicyCaller, alreadyLinked: String? = nil
    ) async throws {
        try await TestApplication.run(on: .sqlite, identity: FakeIdentityVerifier()) { application, client in
            for (index, route) in routes.enumerated() {
                let token = try await caller.token(index: index, application: application, client: client)
                let body = route.2?.replacingOccurrences(of: "new-credential@", with: "new-\(index)-\(caller.rawValue)@")
                let response = try await client.call(route.0, route.1, token: token, json: body)
                let expected = caller.expected
                if expected.allowed {
                    if caller == .permanent, route.1 == alreadyLinked {
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
}
