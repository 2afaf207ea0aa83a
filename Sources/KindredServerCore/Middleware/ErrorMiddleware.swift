import Hummingbird
import KindredStore
import Logging
import OpenAPIRuntime

/// Renders every error thrown below it — Kindred's own, Hummingbird's (404, 405, 413, …) and
/// the OpenAPI layer's — as the JSON error envelope.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = KindredRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return KindredError(mapping: error, logger: context.logger).response()
        }
    }
}

extension KindredError {
    /// Maps any error to the error the client sees. Unknown errors become `internal` and are
    /// logged (as bugs) with the request's metadata; their text never reaches the client.
    package init(mapping error: any Error, logger: Logger) {
        switch error {
        case let error as KindredError:
            self = error
        case let error as ServerError:
            // The OpenAPI layer wraps handler errors; request-decoding failures carry a 4xx.
            if error.underlyingError is KindredError || error.httpStatus.code >= 500 {
                self.init(mapping: error.underlyingError, logger: logger)
            } else {
                self = .http(status: error.httpStatus.code, message: "invalid request: \(error.causeDescription)")
            }
        case let error as any HTTPResponseError:
            switch error.status.code {
            case 404: self = .notFound
            case 405: self = .methodNotAllowed
            case 413:
                if let exceeded = error as? BodyLimitExceeded {
                    self = .payloadTooLarge(limit: exceeded.limit)
                } else {
                    self = .http(status: 413, message: "the request body is too large")
                }
            case 400..<500:
                let message = (error as? HTTPError)?.body ?? error.status.reasonPhrase.lowercased()
                self = .http(status: error.status.code, message: message)
            default:
                logger.error("unhandled HTTP error", metadata: ["error": "\(String(reflecting: error))"])
                self = .internal
            }
        default:
            if DatabaseUnreachable.matches(error) {
                // An outage, not a bug: the client is told to come back (docs/security.md).
                logger.warning("database unreachable", metadata: ["error": "\(String(reflecting: error))"])
                self = .unavailable
                return
            }
            logger.error("unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            self = .internal
        }
    }
}
