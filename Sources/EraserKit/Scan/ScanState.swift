/// A scan's phases (seed §4.1 `ScanPhase`; messages are not scanned on device, §4.4).
public enum ScanPhase: String, Sendable, Codable, CaseIterable {
    /// Every photo's faces against the reference faces.
    case faces
    /// Every photo and video captured in the date ranges.
    case dateRanges = "date_ranges"
    /// Every calendar event, against the ex as a contact.
    case contacts
    /// Calendar events that occur in the date ranges.
    case calendar
}

/// Where a running scan is: its phase and the items done in it.
public struct ScanProgress: Sendable, Equatable {
    /// The phase running.
    public var phase: ScanPhase
    /// The phase's position among the scan's phases (0-based) and how many there are.
    public var phaseIndex: Int
    /// How many phases the scan runs.
    public var phaseCount: Int
    /// Items (assets, events or date ranges) done in this phase, and its total.
    public var done: Int
    /// The phase's items in all.
    public var total: Int
    /// Items per second in this run of the phase, once there is a measurement.
    public var itemsPerSecond: Double?
    /// Seconds left in this phase at that rate.
    public var secondsRemaining: Double?

    /// A progress report.
    public init(
        phase: ScanPhase, phaseIndex: Int, phaseCount: Int, done: Int, total: Int,
        itemsPerSecond: Double? = nil, secondsRemaining: Double? = nil
    ) {
        self.phase = phase
        self.phaseIndex = phaseIndex
        self.phaseCount = phaseCount
        self.done = done
        self.total = total
        self.itemsPerSecond = itemsPerSecond
        self.secondsRemaining = secondsRemaining
    }

    /// The phase's fraction done, 0 to 1.
    public var fraction: Double { total > 0 ? min(1, Double(done) / Double(total)) : 1 }
}

/// A finished scan, ready for review: what it found.
public struct ScanSummary: Sendable, Equatable {
    /// Results in the Review Gallery (items, after merging phases).
    public var resultCount: Int
    /// Results per category (an item with two categories counts in both).
    public var byCategory: [ScanCategory: Int]
    /// Photos the face phase could not read (recorded, not silently dropped).
    public var skipped: Int
    /// The face threshold the results use.
    public var threshold: Double

    /// A summary.
    public init(resultCount: Int, byCategory: [ScanCategory: Int], skipped: Int, threshold: Double) {
        self.resultCount = resultCount
        self.byCategory = byCategory
        self.skipped = skipped
        self.threshold = threshold
    }
}

/// What the user decided in the review.
public struct CleanupSummary: Sendable, Equatable {
    /// Items to keep in the Vault, to delete (via the Cooling Off bin) and to keep as they are.
    public var vaulted: Int
    /// Items to delete.
    public var deleted: Int
    /// Items to keep.
    public var kept: Int
    /// Results without a decision.
    public var undecided: Int

    /// A summary.
    public init(vaulted: Int, deleted: Int, kept: Int, undecided: Int) {
        self.vaulted = vaulted
        self.deleted = deleted
        self.kept = kept
        self.undecided = undecided
    }
}

/// The scan engine's state (seed §4.1 `ScanState`). A cancelled scan is `.error(.scan(.cancelled))`,
/// and `ScanEngine.resume()` continues it.
public enum ScanState: Sendable, Equatable {
    /// No scan running.
    case idle
    /// A scan is running.
    case scanning(ScanProgress)
    /// The scan finished; its results await review.
    case review(ScanSummary)
    /// The review is finished.
    case complete(CleanupSummary)
    /// The scan stopped: failed, or cancelled (resumable).
    case error(EraserKitError)
}
