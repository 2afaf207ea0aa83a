import KindredServer
import KindredServerCore
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredTestSupport
import SQLKit
import Testing

/// The callers every app domain's authorization matrix must refuse on every one of its
/// operations, whatever the operation does: a live session of another app (`wrong_app`), a
/// token of another app sent as this app (`invalid_token`), a revoked session, a disabled
/// account, and no token. A domain's matrix runs `check(_:app:as:on:)` over its operations, so
/// a new domain gets these callers for free.
package enum DomainPolicyCaller: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case wrongApp, otherAppsToken, revokedSession, disabledAccount, noToken
    package var testDescription: String { rawValue }

    /// The status and error code the caller gets on any operation of a domain.
    package var expected: (status: Int, code: String) {
        switch self {
        case .wrongApp: (403, "wrong_app")
        case .otherAppsToken: (401, "invalid_token")
        case .revokedSession: (401, "session_revoked")
        case .disabledAccount: (403, "account_disabled")
        case .noToken: (401, "missing_token")
        }
    }

    /// Another app than `app`, for the callers that come from elsewhere.
    static func otherApp(than app: String) -> String {
        app == "pulse" ? "closer" : "pulse"
    }

    /// A new account of `app`: a password account with both names where the app offers
    /// passwords (no upgrade rule then answers before the session check), else an anonymous one.
    static func account(_ email: String, app: String, client: any TestClientProtocol) async throws -> SessionBody {
        let signUp = try await client.call(
            .post, "/v1/auth/signup", app: app,
            json: #"{"email":"\#(email)","password":"correct horse","firstName":"Policy","lastName":"Caller"}"#
        )
        if signUp.status == .created { return try signUp.decode(SessionBody.self) }
        return try await client.anonymous(app: app)
    }

    /// The token and the `X-Kindred-App` this caller sends to a route of `app`'s domain.
    package func credentials(
        app: String, index: Int, application: TestApplication, client: any TestClientProtocol
    ) async throws -> (token: String?, app: String) {
        let email = "policy-\(rawValue)-\(index)-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let other = Self.otherApp(than: app)
        switch self {
        case .wrongApp:
            return (try await Self.account(email, app: other, client: client).accessToken, other)
        case .otherAppsToken:
            return (try await Self.account(email, app: other, client: client).accessToken, app)
        case .revokedSession:
            let session = try await Self.account(email, app: app, client: client)
            _ = try await client.call(.post, "/v1/auth/logout", app: app, token: session.accessToken)
            return (session.accessToken, app)
        case .disabledAccount:
            let session = try await Self.account(email, app: app, client: client)
            try await application.database.sql.update("kindred_users").set("disabled_at", to: 1)
                .where("id", .equal, session.user.id).run()
            return (session.accessToken, app)
        case .noToken:
            return (nil, app)
        }
    }

    /// The id a `{NAME}` placeholder without a given value becomes: the refusals come before
    /// any id is looked up.
    package static let madeUpID = "0190a7c2-5f0e-7000-8000-00000000abcd"

    /// `text` with every `{NAME}` placeholder (upper-case letters) replaced by `values["{NAME}"]`
    /// when given, else by `madeUpID`.
    package static func filled(_ text: String, _ values: [String: String] = [:]) -> String {
        let given = values.reduce(text) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
        return given.replacingOccurrences(of: #"\{[A-Z]+\}"#, with: madeUpID, options: .regularExpression)
    }

    /// Calls every operation of `app`'s domain as `caller` and expects its refusal.
    /// - Parameters:
    ///   - operations: method, path (with any ids: the refusal comes before they are read) and body.
    ///   - app: the domain's app (`closer`, `soulmate`, …).
    package static func check(
        _ operations: [(method: HTTPRequest.Method, path: String, body: String?)], app: String, as caller: DomainPolicyCaller,
        on backend: Backend
    ) async throws {
        try await TestApplication.run(on: backend) { application, client in
            for (index, operation) in operations.enumerated() {
                let sent = try await caller.credentials(app: app, index: index, application: application, client: client)
                let response = try await client.call(operation.method, operation.path, app: sent.app, token: sent.token, json: operation.body)
                let label = "\(operation.method) \(operation.path) as \(caller): \(response.text.prefix(200))"
                #expect(Int(response.status.code) == caller.expected.status, "\(label)")
                #expect(response.errorCode == caller.expected.code, "\(label)")
            }
        }
    }
}
