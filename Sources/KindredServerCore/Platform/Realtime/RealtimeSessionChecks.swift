/// Coalesces the heartbeat's session re-checks. Every connection re-reads its session at each
/// heartbeat (catching revocations no notification announced); connections of one session whose
/// heartbeats fall close together — a phone's reconnect storm, or every socket opened in the same
/// second — share one read: a check in flight is joined, and a result younger than `freshness`
/// is reused. A revocation is therefore seen at most `freshness` after the heartbeat that would
/// have seen it alone.
actor RealtimeSessionChecks {
    /// How long a result is reused.
    let freshness: Duration
    private let clock = ContinuousClock()
    private var results: [Key: (at: ContinuousClock.Instant, ended: KindredError?)] = [:]
    private var inFlight: [Key: Task<KindredError?, Never>] = [:]

    private struct Key: Hashable {
        var sessionID: String
        var userID: String
    }

    /// Creates the coalescer (the hub reuses results for 5 s or half a heartbeat, whichever is shorter).
    init(freshness: Duration = .seconds(5)) {
        self.freshness = freshness
    }

    /// Why the session ended (nil while it is open), read through `check` unless a fresh result
    /// or a read under way can answer.
    func ended(
        sessionID: String, userID: String, check: @escaping @Sendable () async -> KindredError?
    ) async -> KindredError? {
        let key = Key(sessionID: sessionID, userID: userID)
        let now = clock.now
        if let result = results[key], now - result.at < freshness { return result.ended }
        if let task = inFlight[key] { return await task.value }
        let task = Task { await check() }
        inFlight[key] = task
        let ended = await task.value
        inFlight[key] = nil
        results[key] = (clock.now, ended)
        if results.count > 1024 { results = results.filter { clock.now - $0.value.at < freshness } }
        return ended
    }
}
