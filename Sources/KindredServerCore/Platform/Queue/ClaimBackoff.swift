/// How long a queue's loop waits after its claims fail in a row (the database is down, a
/// failover is under way, the table is locked): the poll interval after the first failure,
/// doubling with each further one up to a cap, and back to normal polling after a success.
/// Without it a worker whose database is gone would retry — and log — every poll interval,
/// and every enqueue signal would wake it to fail again.
struct ClaimBackoff: Sendable {
    /// The wait after the first failure.
    let base: Duration
    /// The longest wait.
    let cap: Duration
    /// Claims failed in a row so far.
    private(set) var failures = 0

    /// Creates a backoff starting at `base` and never waiting longer than `cap`.
    init(base: Duration, cap: Duration) {
        self.base = base
        self.cap = max(base, cap)
    }

    /// Records a failed claim and returns how long to wait before the next one.
    mutating func failed() -> Duration {
        failures += 1
        var delay = base
        for _ in 1..<failures {
            delay = delay * 2
            if delay >= cap { return cap }
        }
        return delay
    }

    /// Records a successful claim.
    /// - Returns: how many claims had failed in a row before it (0 when none had).
    mutating func succeeded() -> Int {
        defer { failures = 0 }
        return failures
    }
}
