extension ScanEngine {
    /// The review of the profile's scan (results, decisions, manual additions).
    public func review() -> ScanReview {
        ScanReview(store: store, library: library, calendar: calendar)
    }

    /// Applies a new face threshold from the cached descriptors and publishes the new review state.
    @discardableResult
    public func rethreshold(_ threshold: Double) throws(EraserKitError) -> ScanSummary {
        guard !isRunning else { throw .scan(.alreadyRunning) }
        let summary = try review().rethreshold(threshold)
        publish(.review(summary))
        return summary
    }

    /// Ends the review and publishes `.complete`.
    @discardableResult
    public func finishReview() throws(EraserKitError) -> CleanupSummary {
        guard !isRunning else { throw .scan(.alreadyRunning) }
        let summary = try review().finish()
        publish(.complete(summary))
        return summary
    }
}
