import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// The JSON a `Session` answer carries, decoded for assertions.
struct SessionBody: Decodable, Sendable {
    var accessToken: String
    var refreshToken: String
    var tokenType: String
    var expiresIn: Int
    var isNewUser: Bool
    var user: UserBody
}

/// The JSON of a `User`.
struct UserBody: Decodable, Sendable, Equatable {
    var id: String
    var app: String
    var isAnonymous: Bool
    var providers: [String]
    var email: String?
    var displayName: String?
    var firstName: String?
    var lastName: String?
    var photoURL: String?
    var timeZone: String?
    var locale: String?
    var createdAt: String
}

/// The error envelope, decoded.
struct ErrorBody: Decodable, Sendable {
    struct Inner: Decodable, Sendable {
        var code: String
        var message: String
    }

    var error: Inner
}

extension TestClientProtocol {
    /// Sends a JSON request for `app` with an optional bearer token.
    func call(
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
    func anonymous(app: String = "closer") async throws -> SessionBody {
        let response = try await call(.post, "/v1/auth/anonymous", app: app)
        #expect(response.status == .created, "\(String(buffer: response.body))")
        return try response.decode(SessionBody.self)
    }

    /// Creates a password account of `app` and returns its session.
    func signUp(_ email: String, password: String = "correct horse", app: String = "closer") async throws -> SessionBody {
        let response = try await call(
            .post, "/v1/auth/signup", app: app, json: #"{"email":"\#(email)","password":"\#(password)"}"#
        )
        #expect(response.status == .created, "\(String(buffer: response.body))")
        return try response.decode(SessionBody.self)
    }

    /// Signs in with e-mail and password.
    func logIn(_ email: String, password: String = "correct horse", app: String = "closer") async throws -> TestResponse {
        try await call(.post, "/v1/auth/login", app: app, json: #"{"email":"\#(email)","password":"\#(password)"}"#)
    }

    /// `POST /v1/auth/refresh`.
    func refresh(_ refreshToken: String, app: String = "closer") async throws -> TestResponse {
        try await call(.post, "/v1/auth/refresh", app: app, json: #"{"refreshToken":"\#(refreshToken)"}"#)
    }
}

extension TestResponse {
    /// The body decoded as `T`.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(buffer: body))
    }

    /// The error code of an error envelope, or nil.
    var errorCode: String? {
        (try? decode(ErrorBody.self))?.error.code
    }
}
