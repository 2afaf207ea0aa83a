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
///   ordinary one, and by the generated code otherwise.
struct KindredTransport: ServerTransport {
    /// Response bodies of known length up to this many bytes are written as one buffer.
    static let collectedResponseLimit = 1 << 20

    let router: Router<KindredRequestContext>
    /// Operations served without the generated server's per-request work.
    var direct = DirectRoutes()

    func register(
        _ handler: @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (
            HTTPResponse, HTTPBody?
        ),
        method: HTTPRequest.Method,
        path: String
    ) throws {
        let hasParameters = path.contains(":") || path.contains("{")
        let direct = direct.handler(method, path)
        router.on(RouterPath(path), method: method) { request, context in
            if let direct, DirectRoutes.isOrdinary(request.headers), let response = try await direct(request, context) {
                return response
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
        let headers = request.headers
        if headers[.contentLength] == nil && headers[.transferEncoding] == nil {
            return HTTPBody()  // HTTP/1.1: a request with neither header has no body
        }
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        return HTTPBody(ArraySlice(buffer.readableBytesView))
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
