import BillingServer
import KindredServer
import KindredServerCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// The JSON a `Session` answer carries, decoded for assertions.
package struct SessionBody: Decodable, Sendable {
    package var accessToken: String
    package var refreshToken: String
    package var tokenType: String
    package var expiresIn: Int
    package var isNewUser: Bool
    package var user: UserBody
}

/// The JSON of a `User`.
package struct UserBody: Decodable, Sendable, Equatable {
    package var id: String
    package var app: String
    package var isAnonymous: Bool
    package var providers: [String]
    package var email: String?
    package var displayName: String?
    package var firstName: String?
    package var lastName: String?
    package var photoURL: String?
    package var timeZone: String?
    package var locale: String?
    package var createdAt: String
}

/// The error envelope, decoded.
package struct ErrorBody: Decodable, Sendable {
    package struct Inner: Decodable, Sendable {
        package var code: String
        package var message: String
    }

    package var error: Inner
}

extension TestClientProtocol {
    /// Sends a JSON request for `app` with an optional bearer token.
    package func call(
        _ method: HTTPRequest.Method, _ path: String, app: String = "closer", token: String? = nil,
        json: String? = nil, headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        headers[.init("X-Kindred-App")!] = app
        if let token { headers[.authorization] = "Bearer \(token)" }
        if json != nil { headers[.contentType] = "application/json" }
        return try await execute(
            uri: path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) }
        )
    }

    /// Creates an anonymous account of `app` and returns its session.
    package func anonymous(app: String = "closer") async throws -> SessionBody {
        let response = try await call(.post, "/v1/auth/anonymous", app: app)
        #expect(response.status == .created, "\(String(buffer: response.body))")
        return try response.decode(SessionBody.self)
    }

    /// Creates a password account of `app` and returns its session.
    package func signUp(_ email: String, password: String = "correct horse", app: String = "closer") async throws -> SessionBody {
        let response = try await call(
            .post, "/v1/auth/signup", app: app, json: #"{"email":"\#(email)","password":"\#(password)"}"#
        )
        #expect(response.status == .created, "\(String(buffer: response.body))")
        return try response.decode(SessionBody.self)
    }

    /// Signs in with e-mail and password.
    package func logIn(_ email: String, password: String = "correct horse", app: String = "closer") async throws -> TestResponse {
        try await call(.post, "/v1/auth/login", app: app, json: #"{"email":"\#(email)","password":"\#(password)"}"#)
    }

    /// `POST /v1/auth/refresh`.
    package func refresh(_ refreshToken: String, app: String = "closer") async throws -> TestResponse {
        try await call(.post, "/v1/auth/refresh", app: app, json: #"{"refreshToken":"\#(refreshToken)"}"#)
    }
}

extension TestResponse {
    /// The body decoded as `T`.
    package func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(buffer: body))
    }

    /// The error code of an error envelope, or nil.
    package var errorCode: String? {
        (try? decode(ErrorBody.self))?.error.code
    }
}
