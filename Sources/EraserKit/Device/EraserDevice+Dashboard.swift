import Foundation

/// The cleanup dashboard (seed §4): what the current scan found and what became of it, what the
/// Vault holds, what waits in the Cooling Off bin and what is gone for good.
public struct CleanupDashboard: Sendable, Equatable {
    /// The current scan's results and decisions; `nil` before the first scan.
    public struct Scan: Sendable, Equatable {
        /// Results in the review.
        public var found: Int
        /// Results per category (a result found by two phases counts in both).
        public var byCategory: [ScanCategory: Int]
        /// Results per kind (photo, video, calendar event).
        public var byKind: [ScanItemKind: Int]
        /// Results per decision taken (vault, delete, keep).
        public var decided: [ReviewDecision: Int]
        /// Results without a decision.
        public var undecided: Int
        /// Decisions not carried out yet (`apply`).
        public var waitingToApply: Int
    }

    public var scan: Scan?
    /// Vault items per type, the Cooling Off bin's included.
    public var vaulted: [VaultItemType: Int]
    /// Items waiting in the Cooling Off bin.
    public var coolingOff: Int
    /// When the next one is destroyed, if any waits.
    public var nextDeletion: Date?
    /// Items the Cooling Off check destroyed for good.
    public var destroyed: Int
    /// Items taken back out of the bin.
    public var rescued: Int
    /// Scans run on this device.
    public var scans: Int
}

extension EraserDevice {
    /// The cleanup dashboard's figures, read from the scan store and the Vault.
    /// - Throws: the review's and the Vault's errors.
    public func dashboard() throws(EraserKitError) -> CleanupDashboard {
        var scan: CleanupDashboard.Scan?
        if try scanStore.checkpoint() != nil {
            let review = ScanReview(store: scanStore)  // Counting needs neither library nor calendar.
            let results = try review.results()
            var byCategory: [ScanCategory: Int] = [:]
            var byKind: [ScanItemKind: Int] = [:]
            var decided: [ReviewDecision: Int] = [:]
            for result in results {
                for category in result.categories { byCategory[category, default: 0] += 1 }
                byKind[result.kind, default: 0] += 1
                if let decision = result.decision { decided[decision, default: 0] += 1 }
            }
            scan = .init(found: results.count, byCategory: byCategory, byKind: byKind, decided: decided,
                         undecided: results.filter { $0.decision == nil }.count,
                         waitingToApply: try review.pendingDecisions().count)
        }
        var vaulted: [VaultItemType: Int] = [:]
        for item in try vault.list() { vaulted[item.type, default: 0] += 1 }
        let bin = try vault.coolingOffHistory()
        let waiting = bin.filter { $0.status == .pending }
        return CleanupDashboard(
            scan: scan, vaulted: vaulted, coolingOff: waiting.count, nextDeletion: waiting.map(\.deleteAfter).min(),
            destroyed: bin.filter { $0.status == .deleted }.count, rescued: bin.filter { $0.status == .restored }.count,
            scans: try history().count)
    }
}
