import Foundation

/// Where a scan is, persisted after every batch so that it can resume (sealed in `scan.db`).
struct ScanCheckpoint: Sendable, Equatable, Codable {
    /// The scan's life.
    enum Status: String, Sendable, Codable {
        case scanning
        case cancelled
        case failed
        case review
        case complete
    }

    /// What the scan looks for.
    var configuration: ScanConfiguration
    /// The reference faces' descriptors (computed once, before the first batch).
    var references: [[Float]]
    var status: Status
    /// The phase to run next (nil once every phase is done).
    var phase: ScanPhase?
    /// Items of `phase` already done: assets or events listed, or date ranges for `.calendar`.
    var offset: Int
    /// The key of the last item done in `phase`, to notice a library that changed before a resume.
    var lastKey: String?
    /// The threshold the face matches use (the configuration's, until a rethreshold).
    var threshold: Double
    /// Why the scan stopped, for a failed one (`code: message`).
    var failure: String?

    /// A fresh checkpoint before the first phase.
    init(configuration: ScanConfiguration, references: [[Float]]) {
        self.configuration = configuration
        self.references = references
        status = .scanning
        phase = configuration.phases.first
        offset = 0
        lastKey = nil
        threshold = configuration.threshold
        failure = nil
    }

    /// Moves to the phase after `phase`, at offset 0.
    mutating func advancePhase() {
        let phases = configuration.phases
        guard let phase, let index = phases.firstIndex(of: phase) else {
            self.phase = nil
            return
        }
        self.phase = index + 1 < phases.count ? phases[index + 1] : nil
        offset = 0
        lastKey = nil
    }
}
