/// How a queue retries a failed item: exponential backoff with full jitter, then dead-letter.
///
/// After failed attempt `n` (1-based) the item waits a uniformly random time in
/// `0 ... min(maxDelay, baseDelay × 2^(n−1))` ("full jitter"); after `maxAttempts` failed
/// attempts it moves to the dead-letter table.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts before dead-lettering (8 by default).
    public var maxAttempts: Int
    /// The first backoff ceiling (10 s by default).
    public var baseDelay: Duration
    /// The largest backoff ceiling (1 h by default).
    public var maxDelay: Duration

    /// Creates a policy; values are clamped to at least 1 attempt and non-negative delays.
    public init(maxAttempts: Int = 8, baseDelay: Duration = .seconds(10), maxDelay: Duration = .seconds(3600)) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = max(.zero, baseDelay)
        self.maxDelay = max(.zero, maxDelay)
    }

    /// The backoff ceiling after failed attempt `attempt` (1-based): `min(maxDelay, baseDelay × 2^(attempt−1))`.
    public func ceiling(afterAttempt attempt: Int) -> Duration {
        let exponent = min(max(0, attempt - 1), 40)
        let base = baseDelay.milliseconds
        let (scaled, overflow) = base.multipliedReportingOverflow(by: Int64(1) << Int64(exponent))
        let cap = maxDelay.milliseconds
        return .milliseconds(overflow ? cap : min(cap, scaled))
    }

    /// The wait after failed attempt `attempt`, given `unit` drawn uniformly from 0 ... 1.
    public func delay(afterAttempt attempt: Int, unit: Double) -> Duration {
        let ceiling = Double(ceiling(afterAttempt: attempt).milliseconds)
        return .milliseconds(Int64((ceiling * min(1, max(0, unit))).rounded(.down)))
    }
}
