import HTTPTypes
import Hummingbird
import Logging

extension HTTPField.Name {
    /// `X-Request-ID`: the id of one request, echoed on its response and written to the logs.
    public static let xRequestID = Self("X-Request-ID")!
    /// `X-Kindred-App`: the app a request belongs to.
    public static let xKindredApp = Self("X-Kindred-App")!
}

/// Takes the caller's `X-Request-ID` (1–128 visible ASCII characters) or makes one, puts it in
/// the logger metadata of the request, echoes it on the response, and logs one line per request
/// (method, route pattern, status, duration).
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = KindredRequestContext

    /// Makes the ids of requests that bring none.
    let ids = RequestIDGenerator()

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        let id = request.headers[.xRequestID].flatMap(Self.accepted) ?? ids.next()
        context.requestID = id
        context.logger[metadataKey: "request_id"] = .string(id)
        let start = ContinuousClock.now
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            // The error middleware sits inside this one and renders every error; anything that
            // still arrives here is rendered the same way so the id is never lost.
            response = KindredError(mapping: error, logger: context.logger).response()
        }
        response.headers[.xRequestID] = id
        context.logger.info(
            "request",
            metadata: [
                "method": .string(request.method.rawValue),
                // The route pattern (`/v1/closer/invites/{code}`), never the raw path: paths carry
                // invite codes and push tokens, which logs must not contain.
                "route": .string(context.endpointPath ?? "unmatched"),
                "status": .stringConvertible(response.status.code),
                "duration_ms": .stringConvertible((ContinuousClock.now - start).milliseconds),
            ]
        )
        return response
    }

    /// The caller's id when it is 1–128 printable ASCII characters without spaces.
    static func accepted(_ value: String) -> String? {
        guard (1...128).contains(value.utf8.count), value.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return nil
        }
        return value
    }
}

extension Duration {
    /// Whole milliseconds.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// Whole nanoseconds.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
