/// Measures a phase's progress: items done, the rate in this run and the time left at that rate.
struct ProgressMeter: Sendable {
    private(set) var progress: ScanProgress
    private let startTime: Double
    private let startDone: Int

    /// A meter for `phase`, starting at `done` of `total` at time `now` (seconds).
    init(phase: ScanPhase, configuration: ScanConfiguration, total: Int, done: Int, now: Double) {
        let phases = configuration.phases
        progress = ScanProgress(
            phase: phase, phaseIndex: phases.firstIndex(of: phase) ?? 0, phaseCount: phases.count,
            done: done, total: max(total, done))
        startTime = now
        startDone = done
    }

    /// Records `done` items at `now`, and returns the progress with its rate and ETA.
    mutating func advance(to done: Int, now: Double) -> ScanProgress {
        progress.done = done
        progress.total = max(progress.total, done)
        let elapsed = now - startTime
        if elapsed > 0, done > startDone {
            let rate = Double(done - startDone) / elapsed
            progress.itemsPerSecond = rate
            progress.secondsRemaining = Double(progress.total - done) / rate
        }
        return progress
    }
}
