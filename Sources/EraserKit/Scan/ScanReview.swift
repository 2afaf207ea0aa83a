import Foundation

/// The Review Gallery's side of a finished scan (seed §4.1): the sorted results, a decision per
/// result (vault, delete, keep), items the user adds, and a new face threshold applied from the
/// cached descriptors without running the embedder again. Decisions are only recorded here; the
/// Vault and the Cooling Off bin carry them out, then `markExecuted`.
public struct ScanReview: Sendable {
    /// The confidence of an item the user added: they know.
    public static let manualConfidence = 1.0
    /// How many cached descriptor entries a rethreshold opens at a time.
    static let rethresholdPage = 500

    let store: ScanStore
    let library: (any PhotoLibrary)?
    let calendar: (any CalendarStore)?

    /// The review of the scan in `store`; `library` and `calendar` are needed to add items by hand.
    public init(store: ScanStore, library: (any PhotoLibrary)? = nil, calendar: (any CalendarStore)? = nil) {
        self.store = store
        self.library = library
        self.calendar = calendar
    }

    /// The results in gallery order (`ScanResultAggregator`), with their decisions.
    /// - Throws: `ScanError.noScan`, `.wrongState` before the scan has finished.
    public func results() throws(EraserKitError) -> [ScanResult] {
        _ = try finishedCheckpoint(allowComplete: true)
        return try Self.results(store: store)
    }

    /// What the scan found, at its current threshold.
    public func summary() throws(EraserKitError) -> ScanSummary {
        let checkpoint = try finishedCheckpoint(allowComplete: true)
        return try Self.summary(store: store, threshold: checkpoint.threshold)
    }

    /// Records the user's decision for a result (replacing an earlier one, which must not have
    /// been carried out yet).
    /// - Throws: `ScanError.notAResult` for an item that is not a result, `.wrongState` for an
    ///   executed decision or a scan not in review.
    public func decide(_ item: ScanItem, _ decision: ReviewDecision) throws(EraserKitError) {
        _ = try finishedCheckpoint(allowComplete: false)
        guard try store.hasMatch(item) else { throw .scan(.notAResult(item.key)) }
        if let old = try store.decisions()[item], old.executed {
            throw .scan(.wrongState("already carried out (\(old.decision.rawValue)) for \(item.key)"))
        }
        try store.saveDecision(StoredDecision(decision: decision, executed: false), for: item)
    }

    /// Adds an item the scan missed (category `.manual`, confidence 1) and returns its result.
    /// - Throws: `LibraryError.notFound` / `CalendarError.notFound` for an unknown item,
    ///   `ScanError.missingDependency` without the library or calendar.
    @discardableResult
    public func addManually(_ item: ScanItem) throws(EraserKitError) -> ScanResult {
        _ = try finishedCheckpoint(allowComplete: false)
        let match: ScanMatch
        switch item {
        case .asset(let id):
            guard let library else { throw .scan(.missingDependency("the photo library")) }
            guard let asset = try library.asset(id) else { throw .library(.notFound(id)) }
            match = ScanMatch(
                item: item, kind: ScanItemKind(asset.mediaType), category: .manual,
                confidence: Self.manualConfidence, date: asset.captureDate.date)
        case .event(let id):
            guard let calendar else { throw .scan(.missingDependency("a calendar")) }
            guard let event = try calendar.event(id) else { throw .calendar(.notFound(id)) }
            match = ScanMatch(
                item: item, kind: .calendarEvent, category: .manual, confidence: Self.manualConfidence, date: event.start)
        }
        try store.addManual(match)
        guard let result = try Self.results(store: store).first(where: { $0.item == item }) else {
            throw .scan(.store("the added item \(item.key) is not among the results"))
        }
        return result
    }

    /// Applies a new face threshold: face findings are recomputed from the cached descriptors
    /// (the embedder is not called), confidences too (`FaceDistance`). Other findings, manual
    /// additions and decisions stay; a decided item that is no longer a result is not pending.
    /// - Throws: `ScanError.invalidThreshold`, `.wrongState` when the scan is not in review or did
    ///   not look for faces.
    @discardableResult
    public func rethreshold(_ threshold: Double) throws(EraserKitError) -> ScanSummary {
        guard FaceDistance.isValidThreshold(threshold) else { throw .scan(.invalidThreshold(threshold)) }
        var checkpoint = try finishedCheckpoint(allowComplete: false)
        guard checkpoint.configuration.references != nil else { throw .scan(.wrongState("a scan without faces")) }
        var matches: [ScanMatch] = []
        var after: AssetID?
        while true {
            let page = try store.descriptorPage(after: after, limit: Self.rethresholdPage)
            guard let last = page.last else { break }
            for (asset, cached) in page {
                guard let distance = FaceDistance.nearest(cached.descriptors, references: checkpoint.references),
                      FaceDistance.isMatch(distance: distance, threshold: threshold) else { continue }
                matches.append(ScanMatch(
                    item: .asset(asset), kind: ScanItemKind(cached.mediaType), category: .face,
                    confidence: FaceDistance.confidence(distance: distance, threshold: threshold),
                    date: cached.date, faceDistance: distance))
            }
            after = last.0
        }
        checkpoint.threshold = threshold
        try store.replaceFaceMatches(matches, checkpoint: checkpoint)
        return try Self.summary(store: store, threshold: threshold)
    }

    /// The vault and delete decisions not carried out yet, for items that are results, in gallery
    /// order (keep needs no action).
    public func pendingDecisions() throws(EraserKitError) -> [PendingDecision] {
        _ = try finishedCheckpoint(allowComplete: true)
        let decisions = try store.decisions()
        return try Self.results(store: store).compactMap { result in
            guard let stored = decisions[result.item], !stored.executed, stored.decision != .keep else { return nil }
            return PendingDecision(item: result.item, kind: result.kind, decision: stored.decision)
        }
    }

    /// Records that a decision has been carried out (it is no longer pending nor changeable).
    /// - Throws: `ScanError.notAResult` when the item has no decision.
    public func markExecuted(_ item: ScanItem) throws(EraserKitError) {
        _ = try finishedCheckpoint(allowComplete: true)
        guard var stored = try store.decisions()[item] else { throw .scan(.notAResult(item.key)) }
        stored.executed = true
        try store.saveDecision(stored, for: item)
    }

    /// Ends the review (the scan becomes complete) and counts its decisions.
    public func finish() throws(EraserKitError) -> CleanupSummary {
        var checkpoint = try finishedCheckpoint(allowComplete: true)
        let results = try Self.results(store: store)
        checkpoint.status = .complete
        try store.saveCheckpoint(checkpoint)
        let count: (ReviewDecision) -> Int = { decision in results.count(where: { $0.decision == decision }) }
        return CleanupSummary(
            vaulted: count(.vault), deleted: count(.delete), kept: count(.keep),
            undecided: results.count(where: { $0.decision == nil }))
    }

    // MARK: - Shared with the engine

    /// The checkpoint of a scan in review (or complete, when allowed).
    private func finishedCheckpoint(allowComplete: Bool) throws(EraserKitError) -> ScanCheckpoint {
        guard let checkpoint = try store.checkpoint() else { throw .scan(.noScan) }
        guard checkpoint.status == .review || (allowComplete && checkpoint.status == .complete) else {
            throw .scan(.wrongState(checkpoint.status.rawValue))
        }
        return checkpoint
    }

    /// Every finding merged and sorted, with the decisions.
    static func results(store: ScanStore) throws(EraserKitError) -> [ScanResult] {
        var aggregator = ScanResultAggregator()
        aggregator.add(contentsOf: try store.matches())
        return aggregator.results(decisions: try store.decisions().mapValues(\.decision))
    }

    /// The summary of the findings in `store`.
    static func summary(store: ScanStore, threshold: Double) throws(EraserKitError) -> ScanSummary {
        let results = try results(store: store)
        var byCategory: [ScanCategory: Int] = [:]
        for result in results {
            for category in result.categories { byCategory[category, default: 0] += 1 }
        }
        return ScanSummary(
            resultCount: results.count, byCategory: byCategory, skipped: try store.skippedCount(), threshold: threshold)
    }
}

/// A decision the Vault or the Cooling Off bin must carry out.
public struct PendingDecision: Sendable, Equatable {
    /// The item to move or delete.
    public var item: ScanItem
    /// What it is (the library or the calendar acts on it).
    public var kind: ScanItemKind
    /// `.vault` or `.delete`.
    public var decision: ReviewDecision
}
