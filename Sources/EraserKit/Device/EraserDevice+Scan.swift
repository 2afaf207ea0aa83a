import Foundation

extension EraserDevice {
    /// Runs a new scan (forgetting the previous one) to its review, and records it in the history.
    /// A face worker is started only when reference photos are given, and stopped afterwards.
    /// - Parameter progress: called with each progress state while the scan runs.
    /// - Throws: the scan engine's, library's, calendar's and face worker's errors.
    public func scan(_ request: ScanRequest, now: Date = Date(),
                     progress: @escaping @Sendable (ScanProgress) -> Void = { _ in }) async throws(EraserKitError) -> ScanSummary {
        try request.configuration.validate()
        var settings = try settings()
        settings.photosPath = request.photos?.standardizedFileURL.path
        settings.calendarPath = request.calendar?.standardizedFileURL.path
        settings.timeZoneIdentifier = request.timeZone.identifier
        settings.scan = nil
        try settings.save(profile: profile)
        let figures = DeviceScanFigures(id: UUID().uuidString.lowercased(), startedAt: now, totalVaulted: 0, totalDeleted: 0)
        try record(figures)
        return try await run(settings, figures, defaultCountryCode: request.defaultCountryCode,
                             needsEmbedder: !request.references.isEmpty, progress: progress) { engine throws(EraserKitError) in
            try await engine.start(request.configuration)
        }
    }

    /// Continues the current scan after a cancel or failure.
    /// - Throws: `ScanError.noScan`, `.wrongState`, and what `scan` throws.
    public func resume(defaultCountryCode: Int? = nil,
                       progress: @escaping @Sendable (ScanProgress) -> Void = { _ in }) async throws(EraserKitError) -> ScanSummary {
        let settings = try settings()
        guard let checkpoint = try scanStore.checkpoint(), let figures = settings.scan else { throw .scan(.noScan) }
        return try await run(settings, figures, defaultCountryCode: defaultCountryCode,
                             needsEmbedder: checkpoint.configuration.references != nil, progress: progress) { engine throws(EraserKitError) in
            try await engine.resume()
        }
    }

    private func run(_ settings: DeviceSettings, _ figures: DeviceScanFigures, defaultCountryCode: Int?, needsEmbedder: Bool,
                     progress: @escaping @Sendable (ScanProgress) -> Void,
                     body: (ScanEngine) async throws(EraserKitError) -> ScanSummary) async throws(EraserKitError) -> ScanSummary {
        let library = try library(settings)
        let calendar = try calendar(settings)
        let embedder = needsEmbedder ? DlibWorkerFaceEmbedder() : nil
        let engine = ScanEngine(library: library, calendar: calendar, embedder: embedder,
                                contactMatcher: { ContactMatcher($0, defaultCountryCode: defaultCountryCode) }, store: scanStore)
        let states = await engine.states()
        let watcher = Task {
            for await state in states {
                switch state {
                case .scanning(let value): progress(value)
                case .idle: continue
                case .review, .complete, .error: return  // The run's last state: every progress was seen.
                }
            }
        }
        let outcome: Result<ScanSummary, EraserKitError>
        do throws(EraserKitError) {
            outcome = .success(try await body(engine))
        } catch {
            outcome = .failure(error)
        }
        if case .success = outcome { await watcher.value } else { watcher.cancel() }
        await embedder?.shutdown()
        let summary = try outcome.get()
        var done = figures
        done.completedAt = Date()
        done.totalScanned = try library.assetCount() + (try calendar?.eventCount() ?? 0)
        done.totalMatched = summary.resultCount
        try record(done)
        return summary
    }
}
