import KindredStore
import Logging

extension RateLimiter {
    /// Admits one event for `key` or throws the 429 the client sees.
    /// - Parameters:
    ///   - key: what is limited (e.g. `invite-accept:<user id>`).
    ///   - limit: the most events per window.
    ///   - window: the rolling window.
    ///   - logger: where a database failure is logged.
    /// - Throws: `KindredError.rateLimited` (429 with `Retry-After`) when the limit is reached,
    ///   `KindredError.internal` when the check itself fails.
    public func enforce(
        key: String, limit: Int, window: Duration, logger: Logger
    ) async throws(KindredError) {
        let decision: Decision
        do {
            decision = try await check(key: key, limit: limit, window: window)
        } catch {
            logger.error("rate limit check failed", metadata: ["error": "\(error)"])
            throw .internal
        }
        if case .retryAfter(let seconds) = decision {
            throw .rateLimited(retryAfterSeconds: seconds)
        }
    }
}
