import HTTPTypes
import Hummingbird

/// The 413 for a body over the limit, carrying the limit for the error message.
struct BodyLimitExceeded: HTTPResponseError {
    let limit: Int
    var status: HTTPResponse.Status { .contentTooLarge }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        KindredError.payloadTooLarge(limit: limit).response()
    }
}

/// Refuses bodies over `limit` bytes with 413 `payload_too_large`: at once when
/// `Content-Length` says so, and while reading when the body is sent without a length.
/// Routes that collect bodies through the context (`maxUploadSize`) are held to the same limit.
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = KindredRequestContext

    let limit: Int

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.maxUploadSize = limit
        if let declared = request.headers[.contentLength] {
            guard let length = Int(declared), length >= 0 else {
                throw KindredError.badRequest("Content-Length is not a number")
            }
            guard length <= limit else { throw BodyLimitExceeded(limit: limit) }
            return try await next(request, context)
        }
        guard request.headers[.transferEncoding] != nil else { return try await next(request, context) }
        // A body of unknown length: read it now, up to the limit, so no route sees more.
        var request = request
        do {
            _ = try await request.collectBody(upTo: limit)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw BodyLimitExceeded(limit: limit)
        }
        return try await next(request, context)
    }
}
