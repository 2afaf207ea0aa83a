import Foundation
import HTTPTypes
import Hummingbird
import OpenAPIRuntime

/// Operations of the OpenAPI document that the transport serves without the generated server's
/// per-request machinery: the generic header decoding (each header parameter through the
/// runtime's URI decoder), the `Accept` negotiation and Foundation's `JSONEncoder` for the answer.
/// On the hottest read, `GET /v1/me`, that machinery cost about as much as the rest of the
/// request.
///
/// A direct handler answers only ordinary requests (`isOrdinary`): no `Accept` header or one that
/// names JSON plainly, and an `X-Request-ID` (if any) of plain characters. Anything else goes to
/// the generated code, whose answer (a negotiation error, a header the URI decoder refuses) is
/// then the same as for every other operation. A handler may also return nil to hand a request
/// over. Errors it throws go through the same error middleware as the generated server's.
///
/// The core's come from `APIHandler.directRoutes()`; a domain adds its own for operations of its
/// contract with `DomainServer.transport(direct:)`.
///
/// Each direct handler has a test sending the same requests through both paths and comparing
/// status, headers and body bytes (`DirectRoutesTests`, `CloserDirectRoutesTests`).
package struct DirectRoutes: Sendable {
    /// Answers the request, or nil to let the generated server answer it.
    package typealias Handler = @Sendable (Request, KindredRequestContext) async throws -> Response?

    private var handlers: [String: Handler] = [:]

    /// No direct routes: every operation through the generated server.
    package init() {}

    /// Serves `method path` (the path as the document writes it) directly.
    package mutating func add(_ method: HTTPRequest.Method, _ path: String, _ handler: @escaping Handler) {
        handlers[Self.key(method, path)] = handler
    }

    /// The direct handler of `method path`, if any.
    package func handler(_ method: HTTPRequest.Method, _ path: String) -> Handler? {
        handlers[Self.key(method, path)]
    }

    /// The operations that have direct handlers, as `METHOD path`.
    package var operations: [String] { handlers.keys.sorted() }

    private static func key(_ method: HTTPRequest.Method, _ path: String) -> String {
        "\(method.rawValue) \(path)"
    }

    /// Whether a direct handler may answer a request with these headers: its `Accept` is absent,
    /// `*/*` or `application/json`, and its `X-Request-ID` is absent or only letters, digits and
    /// `-._~` (what the runtime's URI decoder reads back unchanged).
    package static func isOrdinary(_ headers: HTTPFields) -> Bool {
        var accepts = 0
        for field in headers where field.name == .accept {
            accepts += 1
            guard accepts == 1, field.value == "application/json" || field.value == "*/*" else { return false }
        }
        var ids = 0
        for field in headers where field.name == .xRequestID {
            ids += 1
            guard ids == 1, field.value.utf8.allSatisfy(isUnreserved) else { return false }
        }
        return true
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// The request's JSON body decoded as the generated server decodes it (OpenAPIRuntime's
    /// `Converter`: a plain `JSONDecoder`, dates by `DomainServer.openAPIConfiguration`'s
    /// transcoder), or nil to hand the request to the generated code: no body (neither
    /// `Content-Length` nor `Transfer-Encoding`), a `Content-Type` other than one field of exactly
    /// `application/json` or `application/json; charset=utf-8` (the content negotiation's cases), or
    /// a body that does not decode (the generated code's typed 400 is the answer).
    ///
    /// The transport has collected the body before calling the direct handler (`KindredTransport`):
    /// reading it here returns that buffer, which the generated code reads again if handed the request.
    package static func jsonBody<Body: Decodable>(
        _ type: Body.Type, _ request: Request, context: KindredRequestContext
    ) async throws -> Body? {
        guard request.headers[.contentLength] != nil || request.headers[.transferEncoding] != nil else { return nil }
        var types = 0
        for field in request.headers where field.name == .contentType {
            types += 1
            guard types == 1, field.value == "application/json" || field.value == "application/json; charset=utf-8" else {
                return nil
            }
        }
        guard types == 1 else { return nil }
        var request = request
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        return try? bodyDecoder.decode(Body.self, from: Data(buffer.readableBytesView))
    }

    /// Made once: a `JSONDecoder` is safe to share once configured, and making one per request
    /// (with its date strategy's closure) was part of the cost this path avoids.
    private static let bodyDecoder: JSONDecoder = {
        let decoder = JSONDecoder()
        let dates = DomainServer.openAPIConfiguration.dateTranscoder
        decoder.dateDecodingStrategy = .custom { decoder in
            try dates.decode(try decoder.singleValueContainer().decode(String.self))
        }
        return decoder
    }()

    /// A JSON answer (200 unless `status` says otherwise), headers as the generated server writes them.
    package static func json(_ bytes: [UInt8], status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: jsonHeaders, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// Built once: a literal builds its fields (and checks each name) on every response.
    private static let jsonHeaders: HTTPFields = [.contentType: "application/json; charset=utf-8"]
}
