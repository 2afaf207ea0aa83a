import Foundation

/// The "Search & Rescue" scan (seed §4.1): runs the configuration's phases over the photo library
/// (in batches, 50 by default) and the calendar, keeps a checkpoint in `scan.db` after every batch,
/// and publishes its state. A cancelled scan (`cancel()` or task cancellation) stops after the
/// current batch, and `resume()` continues from its checkpoint without redoing finished batches.
///
/// Memory stays bounded: one batch of assets or events at a time; only findings are kept (in the
/// store). The face descriptors computed per photo are cached, sealed, so `ScanReview.rethreshold`
/// never calls the embedder again.
public actor ScanEngine {
    /// The confidence of a date-range finding: "captured while you were together" says nothing
    /// about who is in it, so it ranks level with a face exactly at the threshold.
    public static let dateRangeConfidence = 0.5

    let library: any PhotoLibrary
    let calendar: (any CalendarStore)?
    let embedder: (any FaceEmbedder)?
    let makeContactMatcher: (@Sendable (ScanContact) -> any ContactMatching)?
    let store: ScanStore
    let clock: @Sendable () -> Double

    /// The current state (also published by `states()`).
    public private(set) var state: ScanState = .idle
    private var subscribers: [UUID: AsyncStream<ScanState>.Continuation] = [:]
    private var running = false
    /// Whether a scan is running now.
    public var isRunning: Bool { running }
    var cancelRequested = false

    /// An engine over the device's services; `calendar`, `embedder` and `contactMatcher` are needed
    /// only by the phases that use them. `clock` gives monotonic seconds (for rate and ETA).
    public init(
        library: any PhotoLibrary, calendar: (any CalendarStore)? = nil, embedder: (any FaceEmbedder)? = nil,
        contactMatcher: (@Sendable (ScanContact) -> any ContactMatching)? = nil, store: ScanStore,
        clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }
    ) {
        self.library = library
        self.calendar = calendar
        self.embedder = embedder
        self.makeContactMatcher = contactMatcher
        self.store = store
        self.clock = clock
    }

    /// A stream of states, starting with the current one. It buffers the newest 256 states for a
    /// slow reader and ends when the reader stops reading.
    public func states() -> AsyncStream<ScanState> {
        let (stream, continuation) = AsyncStream.makeStream(of: ScanState.self, bufferingPolicy: .bufferingNewest(256))
        let id = UUID()
        subscribers[id] = continuation
        continuation.yield(state)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    private func unsubscribe(_ id: UUID) { subscribers[id] = nil }

    /// Sets and publishes the state.
    func publish(_ newState: ScanState) {
        state = newState
        for continuation in subscribers.values { continuation.yield(newState) }
    }

    /// Asks the running scan to stop after its current batch (it then throws `ScanError.cancelled`
    /// and leaves a resumable checkpoint). Does nothing when no scan runs.
    public func cancel() {
        if running { cancelRequested = true }
    }

    /// Starts a new scan, forgetting the profile's previous one, and runs it to the review.
    /// - Returns: what the scan found.
    /// - Throws: the configuration's `ScanError`s, `.missingDependency`, `.alreadyRunning`,
    ///   `.unusableReference`, `.cancelled` (resumable), or the services' errors (resumable).
    public func start(_ configuration: ScanConfiguration) async throws(EraserKitError) -> ScanSummary {
        guard !running else { throw .scan(.alreadyRunning) }
        running = true
        cancelRequested = false
        defer { running = false }
        do throws(EraserKitError) {
            try configuration.validate()
            try checkDependencies(configuration)
            let references = try await referenceDescriptors(configuration)
            var checkpoint = ScanCheckpoint(configuration: configuration, references: references)
            try store.reset(to: checkpoint)
            return try await run(&checkpoint)
        } catch {
            if state != .error(error) { publish(.error(error)) }
            throw error
        }
    }

    /// Continues the profile's cancelled or failed scan from its checkpoint.
    /// - Throws: `ScanError.noScan`, `.wrongState` for a finished scan, `.alreadyRunning`, or what
    ///   `start` throws while running.
    public func resume() async throws(EraserKitError) -> ScanSummary {
        guard !running else { throw .scan(.alreadyRunning) }
        running = true
        cancelRequested = false
        defer { running = false }
        do throws(EraserKitError) {
            guard var checkpoint = try store.checkpoint() else { throw .scan(.noScan) }
            guard [.scanning, .cancelled, .failed].contains(checkpoint.status) else {
                throw .scan(.wrongState(checkpoint.status.rawValue))
            }
            try checkDependencies(checkpoint.configuration)
            checkpoint.status = .scanning
            checkpoint.failure = nil
            return try await run(&checkpoint)
        } catch {
            if state != .error(error) { publish(.error(error)) }
            throw error
        }
    }

    /// Runs the remaining phases, then moves the scan to review; on an error records it in the
    /// checkpoint (status `cancelled` or `failed`) and publishes `.error`.
    private func run(_ checkpoint: inout ScanCheckpoint) async throws(EraserKitError) -> ScanSummary {
        do throws(EraserKitError) {
            while let phase = checkpoint.phase {
                try await runPhase(phase, &checkpoint)
                checkpoint.advancePhase()
                try store.saveCheckpoint(checkpoint)
            }
            checkpoint.status = .review
            try store.saveCheckpoint(checkpoint)
            let summary = try ScanReview.summary(store: store, threshold: checkpoint.threshold)
            publish(.review(summary))
            return summary
        } catch {
            checkpoint.status = error == .scan(.cancelled) ? .cancelled : .failed
            checkpoint.failure = error == .scan(.cancelled) ? nil : error.description
            // The last committed checkpoint stays valid for a resume if this write fails too.
            try? store.saveCheckpoint(checkpoint)
            publish(.error(error))
            throw error
        }
    }

    /// Throws `.cancelled` when a cancel was asked for or the task was cancelled.
    func checkCancelled() throws(EraserKitError) {
        if cancelRequested || Task.isCancelled { throw .scan(.cancelled) }
    }

    /// Checks that the configuration's phases have the services they need.
    private func checkDependencies(_ configuration: ScanConfiguration) throws(EraserKitError) {
        let phases = configuration.phases
        if phases.contains(.faces) && embedder == nil { throw .scan(.missingDependency("a face embedder")) }
        if (phases.contains(.contacts) || phases.contains(.calendar)) && calendar == nil {
            throw .scan(.missingDependency("a calendar"))
        }
        if phases.contains(.contacts) && makeContactMatcher == nil { throw .scan(.missingDependency("a contact matcher")) }
    }

    /// The reference faces' descriptors: given, or computed from the reference photos (each must
    /// show exactly one face).
    private func referenceDescriptors(_ configuration: ScanConfiguration) async throws(EraserKitError) -> [[Float]] {
        switch configuration.references {
        case nil:
            return []
        case .descriptors(let descriptors):
            return descriptors
        case .photos(let urls):
            guard let embedder else { throw .scan(.missingDependency("a face embedder")) }
            var descriptors: [[Float]] = []
            for url in urls {
                let faces = try await embedder.faces(in: url)
                guard faces.count == 1, let face = faces.first else {
                    throw .scan(.unusableReference(path: url.path, faces: faces.count))
                }
                descriptors.append(face.descriptor)
            }
            try ScanConfiguration.validateDescriptors(descriptors)
            return descriptors
        }
    }
}
