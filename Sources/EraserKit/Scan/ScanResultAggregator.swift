import Foundation

/// Merges the phases' findings into the Review Gallery's results (seed §4.1 "ResultAggregator").
///
/// - One result per item: an asset found by its face and by a date range is one result with the
///   categories `[.face, .dateRange]`.
/// - Its confidence is the highest of its findings' (max, not a sum: a date-range finding adds
///   no evidence about who is in the photo); its date is the earliest of theirs.
/// - Order: confidence descending, then date descending (newest first), then the item's key
///   ascending, so equal results always come out in the same order.
public struct ScanResultAggregator: Sendable {
    private var merged: [ScanItem: ScanResult] = [:]

    /// An empty aggregator.
    public init() {}

    /// Adds one finding, merging it into its item's result.
    public mutating func add(_ match: ScanMatch) {
        guard var result = merged[match.item] else {
            merged[match.item] = ScanResult(
                item: match.item, kind: match.kind, categories: [match.category], confidence: match.confidence,
                date: match.date, faceDistance: match.faceDistance, contactHit: match.contactHit, decision: nil)
            return
        }
        if !result.categories.contains(match.category) {
            result.categories.append(match.category)
            result.categories.sort()
        }
        result.confidence = max(result.confidence, match.confidence)
        result.date = min(result.date, match.date)
        if let distance = match.faceDistance {
            result.faceDistance = min(result.faceDistance ?? distance, distance)
        }
        if let hit = match.contactHit, hit.confidence > result.contactHit?.confidence ?? -1 {
            result.contactHit = hit
        }
        merged[match.item] = result
    }

    /// Adds many findings.
    public mutating func add(contentsOf matches: some Sequence<ScanMatch>) {
        for match in matches { add(match) }
    }

    /// The results, sorted, with `decisions` applied.
    public func results(decisions: [ScanItem: ReviewDecision] = [:]) -> [ScanResult] {
        merged.values.map { result in
            var result = result
            result.decision = decisions[result.item]
            return result
        }
        .sorted(by: Self.galleryOrder)
    }

    /// The gallery's order: confidence descending, date descending, key ascending.
    public static func galleryOrder(_ lhs: ScanResult, _ rhs: ScanResult) -> Bool {
        if lhs.confidence != rhs.confidence { return lhs.confidence > rhs.confidence }
        if lhs.date != rhs.date { return lhs.date > rhs.date }
        return lhs.item.key < rhs.item.key
    }
}
