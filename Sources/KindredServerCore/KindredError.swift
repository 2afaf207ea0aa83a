import Foundation
import HTTPTypes
import Hummingbird

/// Every error the server answers with, rendered as `{"error":{"code":…,"message":…}}`.
///
/// Codes are stable (clients branch on them); 4xx statuses are for the caller to fix and
/// `internal` (500) means a bug. Messages never contain secrets or database errors.
public enum KindredError: Error, Sendable, Equatable {
    /// No route matches the path (404 `not_found`).
    case notFound
    /// The path exists but not for this method (405 `method_not_allowed`).
    case methodNotAllowed
    /// The body is larger than the server accepts (413 `payload_too_large`).
    case payloadTooLarge(limit: Int)
    /// The request is malformed (400 `bad_request`).
    case badRequest(String)
    /// The request does not name its app in `X-Kindred-App` (400 `missing_app`).
    case missingApp
    /// `X-Kindred-App` names no app of this deployment (400 `unknown_app`).
    case unknownApp(String)
    /// The app exists but this deployment does not serve it (403 `app_disabled`).
    case appDisabled(AppID)
    /// Too many requests for this key; retry after the given seconds (429 `rate_limited`).
    case rateLimited(retryAfterSeconds: Int)
    /// The database does not answer (503 `not_ready`).
    case notReady
    /// Any other HTTP-level refusal, coded from its status (e.g. 415 `unsupported_media_type`).
    case http(status: Int, message: String)
    /// A domain's refusal with its own stable code (e.g. 409 `email_taken`); the domains build
    /// these through named constructors (`KindredError+Accounts.swift`, …).
    case refused(status: Int, code: String, message: String)
    /// A bug: the server failed in a way the caller cannot fix (500 `internal`).
    case `internal`

    /// The HTTP status.
    public var status: HTTPResponse.Status {
        switch self {
        case .notFound: .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .payloadTooLarge: .contentTooLarge
        case .badRequest, .missingApp, .unknownApp: .badRequest
        case .appDisabled: .forbidden
        case .rateLimited: .tooManyRequests
        case .notReady: .serviceUnavailable
        case .http(let status, _), .refused(let status, _, _): HTTPResponse.Status(code: status)
        case .internal: .internalServerError
        }
    }

    /// The stable, snake_case error code.
    public var code: String {
        switch self {
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .payloadTooLarge: "payload_too_large"
        case .badRequest: "bad_request"
        case .missingApp: "missing_app"
        case .unknownApp: "unknown_app"
        case .appDisabled: "app_disabled"
        case .rateLimited: "rate_limited"
        case .notReady: "not_ready"
        case .http(let status, _): Self.statusCodes[status] ?? "http_\(status)"
        case .refused(_, let code, _): code
        case .internal: "internal"
        }
    }

    /// A human-readable explanation.
    public var message: String {
        switch self {
        case .notFound: "no such route"
        case .methodNotAllowed: "this route does not accept this method"
        case .payloadTooLarge(let limit): "the request body is larger than \(limit) bytes"
        case .badRequest(let why): why
        case .missingApp: "the X-Kindred-App header is required (closer, soulmate, streaksync, exeraser or pulse)"
        case .unknownApp(let name): "X-Kindred-App \"\(name.prefix(40))\" is not an app of this server"
        case .appDisabled(let app): "the app \(app.rawValue) is not enabled on this server"
        case .rateLimited(let seconds): "too many requests; retry after \(seconds) seconds"
        case .notReady: "the server cannot reach its database"
        case .http(_, let message), .refused(_, _, let message): message
        case .internal: "internal error"
        }
    }

    /// The codes of the HTTP-level refusals a client can meet besides the named cases.
    package static let statusCodes: [Int: String] = [
        400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
        405: "method_not_allowed", 406: "not_acceptable", 408: "request_timeout", 409: "conflict",
        410: "gone", 411: "length_required", 412: "precondition_failed", 413: "payload_too_large",
        414: "uri_too_long", 415: "unsupported_media_type", 416: "range_not_satisfiable",
        417: "expectation_failed", 422: "unprocessable_content", 428: "precondition_required",
        429: "rate_limited", 431: "request_header_fields_too_large",
    ]

    /// Extra response headers (`Retry-After` for `rateLimited`).
    public var headers: HTTPFields {
        switch self {
        case .rateLimited(let seconds): [.retryAfter: String(seconds)]
        case .refused(503, "unavailable", _): [.retryAfter: String(Self.unavailableRetryAfterSeconds)]
        case .refused(401, let code, _):
            // RFC 6750 §3: a refused bearer token is answered with a challenge.
            [.wwwAuthenticate: code == "missing_token" ? #"Bearer realm="kindred""#
                : #"Bearer realm="kindred", error="invalid_token""#]
        default: [:]
        }
    }
}

extension KindredError {
    /// The seconds `unavailable` tells a client to wait.
    package static let unavailableRetryAfterSeconds = 5

    /// 503 `unavailable` with `Retry-After`: the database cannot be reached right now (an
    /// outage, not a bug); the request changed nothing the client must know about and may be retried.
    public static let unavailable = KindredError.refused(
        status: 503, code: "unavailable", message: "the service is briefly unavailable; retry shortly"
    )
}

extension KindredError {
    /// The JSON body of the error envelope.
    package struct Envelope: Codable, Equatable {
        struct Body: Codable, Equatable {
            var code: String
            var message: String
        }

        var error: Body
    }

    /// The error as an HTTP response with the JSON envelope.
    public func response() -> Response {
        let envelope = Envelope(error: .init(code: code, message: message))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding two strings cannot fail; the fallback keeps the envelope shape regardless.
        let bytes = (try? encoder.encode(envelope)).map { [UInt8]($0) }
            ?? Array(#"{"error":{"code":"internal","message":"internal error"}}"#.utf8)
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
