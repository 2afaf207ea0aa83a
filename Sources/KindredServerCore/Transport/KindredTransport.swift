import HTTPTypes
import Hummingbird
import OpenAPIRuntime

/// The generated server's transport: registers each operation of the OpenAPI document as a route
/// on Kindred's Hummingbird router.
///
/// It does what swift-openapi-hummingbird's `RouterMethods` conformance does, with less work per
/// request for the bodies Kindred's routes exchange (small JSON documents):
/// - the request body is read as one buffer (the body limit middleware has already bounded it)
///   and handed over as bytes of known length, instead of a mapped stream that copies each chunk
///   into a new array as the decoder pulls it;
/// - a response body of known length up to `collectedResponseLimit` is written as one buffer,
///   instead of through a writer closure iterating a mapped sequence; longer or unknown-length
///   bodies still stream;
/// - the path parameters' dictionary is made only for routes that have parameters;
/// - an operation with a direct handler (`DirectRoutes`) is served by it when the request is an
///   ordinary one, and by the generated code otherwise (or when the handler hands it back); the
///   body is collected before the direct handler runs, so both can read it;
/// - before either, the request is checked against its operation's constraints in the contract
///   (`RequestConstraints`: lengths, patterns, bounds, item counts, which the generated code does
///   not check), so a direct handler is held to them too.
struct KindredTransport: ServerTransport {
    /// Response bodies of known length up to this many bytes are written as one buffer.
    static let collectedResponseLimit = 1 << 20

    let router: Router<KindredRequestContext>
    /// Operations served without the generated server's per-request work.
    var direct = DirectRoutes()
    /// The contracts' constraints; nil registers operations unchecked (transport tests only).
    var constraints: RequestConstraints?

    func register(
        _ handler: @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (
            HTTPResponse, HTTPBody?
        ),
        method: HTTPRequest.Method,
        path: String
    ) throws {
        let hasParameters = path.contains(":") || path.contains("{")
        let direct = direct.handler(method, path)
        var operation: OperationConstraints?
        if let constraints {
            guard let found = constraints.operation(method, path) else {
                throw ContractConstraintError.undocumentedOperation(method: method.rawValue, path: path)
            }
            operation = found.isEmpty ? nil : found
        }
        let checked = operation
        router.on(RouterPath(path), method: method) { request, context in
            var request = request
            if let checked {
                var bytes: [UInt8]?
                if checked.body != nil, Self.hasBody(request.headers), OperationConstraints.isJSON(request.headers) {
                    // Collected once: the generated code's `requestBody` below reads the same buffer.
                    let buffer = try await request.collectBody(upTo: context.maxUploadSize)
                    bytes = Array(buffer.readableBytesView)
                }
                try checked.validate(request, pathParameters: context.parameters, body: bytes)
            }
            if let direct, DirectRoutes.isOrdinary(request.headers) {
                // Collected here (a no-op after the constraint check), so a direct handler that
                // reads the body and hands the request back leaves it for the generated code.
                if Self.hasBody(request.headers) { _ = try await request.collectBody(upTo: context.maxUploadSize) }
                if let response = try await direct(request, context) { return response }
            }
            let body = try await Self.requestBody(request, context: context)
            let metadata: ServerRequestMetadata
            if hasParameters {
                var parameters: [String: Substring] = [:]
                for (key, value) in context.parameters where parameters[String(key)] == nil {
                    parameters[String(key)] = value
                }
                metadata = ServerRequestMetadata(pathParameters: parameters)
            } else {
                metadata = ServerRequestMetadata()
            }
            let (response, responseBody) = try await handler(request.head, body, metadata)
            return try await Self.response(response, body: responseBody)
        }
    }

    /// The request's body as bytes of known length (empty when the request has none).
    static func requestBody(_ request: Request, context: KindredRequestContext) async throws -> HTTPBody {
        guard hasBody(request.headers) else { return HTTPBody() }
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        return HTTPBody(ArraySlice(buffer.readableBytesView))
    }

    /// Whether a request with these headers has a body: HTTP/1.1 gives a request with neither
    /// `Content-Length` nor `Transfer-Encoding` none.
    static func hasBody(_ headers: HTTPFields) -> Bool {
        headers[.contentLength] != nil || headers[.transferEncoding] != nil
    }

    /// Hummingbird's response for the generated server's.
    static func response(_ response: HTTPResponse, body: HTTPBody?) async throws -> Response {
        guard let body else {
            return Response(status: response.status, headers: response.headerFields, body: .init(byteBuffer: ByteBuffer()))
        }
        if case .known(let length) = body.length, length <= collectedResponseLimit {
            var buffer = ByteBuffer()
            buffer.reserveCapacity(Int(length))
            for try await chunk in body { buffer.writeBytes(chunk) }
            return Response(status: response.status, headers: response.headerFields, body: .init(byteBuffer: buffer))
        }
        let chunks = body.map { ByteBuffer(bytes: $0) }
        let responseBody: ResponseBody
        if case .known(let length) = body.length {
            responseBody = ResponseBody(contentLength: Int(length)) { writer in
                for try await chunk in chunks { try await writer.write(chunk) }
                try await writer.finish(nil)
            }
        } else {
            responseBody = ResponseBody(asyncSequence: chunks)
        }
        return Response(status: response.status, headers: response.headerFields, body: responseBody)
    }
}
