import Foundation

extension ScanEngine {
    /// Runs one phase from the checkpoint's offset to its end, a batch at a time; every batch is
    /// committed with its checkpoint before the next starts.
    func runPhase(_ phase: ScanPhase, _ checkpoint: inout ScanCheckpoint) async throws(EraserKitError) {
        switch phase {
        case .faces, .dateRanges:
            try await runAssetPhase(phase, &checkpoint)
        case .contacts:
            try runContactPhase(&checkpoint)
        case .calendar:
            try runCalendarPhase(&checkpoint)
        }
    }

    /// Faces and date ranges: every visible asset, in the library's order, `batchSize` at a time.
    private func runAssetPhase(_ phase: ScanPhase, _ checkpoint: inout ScanCheckpoint) async throws(EraserKitError) {
        let configuration = checkpoint.configuration
        let ranges = try configuration.instantRanges()
        let total = try library.assetCount()
        // A library changed since the checkpoint (the asset before the offset is not the last one
        // done): redo the phase from its start; findings are merged, so nothing is counted twice.
        if checkpoint.offset > 0,
           try library.assets(offset: checkpoint.offset - 1, limit: 1).first.map({ ScanItem.asset($0.id).key }) != checkpoint.lastKey {
            checkpoint.offset = 0
            checkpoint.lastKey = nil
        }
        var meter = ProgressMeter(phase: phase, configuration: configuration, total: total, done: checkpoint.offset, now: clock())
        publish(.scanning(meter.progress))
        while true {
            try checkCancelled()
            let assets = try library.assets(offset: checkpoint.offset, limit: configuration.batchSize)
            if assets.isEmpty { break }
            var batch = ScanBatch()
            if phase == .faces {
                try await findFaces(in: assets, references: checkpoint.references, threshold: checkpoint.threshold, into: &batch)
            }
            for asset in assets where phase == .dateRanges {
                if ranges.contains(where: { $0.contains(asset.captureDate.date) }) {
                    batch.matches.append(ScanMatch(
                        item: .asset(asset.id), kind: ScanItemKind(asset.mediaType), category: .dateRange,
                        confidence: Self.dateRangeConfidence, date: asset.captureDate.date))
                }
            }
            checkpoint.offset += assets.count
            checkpoint.lastKey = assets.last.map { ScanItem.asset($0.id).key }
            try store.commit(batch, checkpoint: checkpoint)
            publish(.scanning(meter.advance(to: checkpoint.offset, now: clock())))
            if assets.count < configuration.batchSize { break }
        }
    }

    /// The face phase over one batch: the photos' faces (videos are not embedded), with up to the
    /// embedder's `concurrency` photos in flight, then taken in the batch's order: each photo's
    /// faces cached, and a finding when the nearest is within the threshold. An unreadable photo
    /// is recorded as skipped; any other embedder error stops the scan (resumable) at the first
    /// such photo in order.
    private func findFaces(
        in assets: [PhotoAsset], references: [[Float]], threshold: Double, into batch: inout ScanBatch
    ) async throws(EraserKitError) {
        let photos = assets.filter { $0.mediaType == .photo }
        guard !photos.isEmpty else { return }
        guard let embedder else { throw .scan(.missingDependency("a face embedder")) }
        var urls: [URL] = []
        for photo in photos { urls.append(try library.contentsURL(of: photo.id)) }
        let outcomes = await Self.embed(urls, with: embedder)
        for (asset, outcome) in zip(photos, outcomes) {
            let faces: [DetectedFace]
            switch outcome {
            case .success(let found):
                faces = found
            case .failure(let error):
                guard case .faces(.unreadableImage) = error else { throw error }
                batch.skipped.append((asset.id, error.description))
                continue
            }
            guard !faces.isEmpty else { continue }
            let descriptors = faces.map(\.descriptor)
            batch.descriptors.append((asset.id, CachedFaces(date: asset.captureDate.date, mediaType: asset.mediaType, descriptors: descriptors)))
            if let distance = FaceDistance.nearest(descriptors, references: references),
               FaceDistance.isMatch(distance: distance, threshold: threshold) {
                batch.matches.append(ScanMatch(
                    item: .asset(asset.id), kind: .photo, category: .face,
                    confidence: FaceDistance.confidence(distance: distance, threshold: threshold),
                    date: asset.captureDate.date, faceDistance: distance))
            }
        }
    }

    /// Each image's faces or error, in the order of `urls`, with at most `embedder.concurrency`
    /// requests in flight.
    private static func embed(_ urls: [URL], with embedder: any FaceEmbedder) async -> [Result<[DetectedFace], EraserKitError>] {
        let width = max(1, embedder.concurrency)
        if width == 1 || urls.count == 1 {
            var outcomes: [Result<[DetectedFace], EraserKitError>] = []
            for url in urls {
                let outcome = await Self.faces(in: url, with: embedder)
                outcomes.append(outcome)
                if case .failure(let error) = outcome, !Self.isSkippable(error) { return outcomes }  // The scan stops here.
            }
            return outcomes
        }
        // `width` requests in flight: the first ones, then one more each time one is answered.
        // (An earlier form decided inside one loop whether to add a task or wait, guarded by
        // `group.isEmpty`; its release build returned no outcome at all for a batch, so every
        // photo went unmatched. `ScanConcurrencyTests` and the release bench
        // `scripts/bench-eraser-faces` check the matches.)
        return await withTaskGroup(of: (Int, Result<[DetectedFace], EraserKitError>).self) { group in
            var answered = [Result<[DetectedFace], EraserKitError>?](repeating: nil, count: urls.count)
            var next = 0
            var stopped = false  // After an error that stops the scan, nothing more is asked.
            while next < min(width, urls.count) {
                let index = next
                group.addTask { (index, await Self.faces(in: urls[index], with: embedder)) }
                next += 1
            }
            while let (index, outcome) = await group.next() {
                answered[index] = outcome
                if case .failure(let error) = outcome, !Self.isSkippable(error) { stopped = true }
                if !stopped, next < urls.count {
                    let index = next
                    group.addTask { (index, await Self.faces(in: urls[index], with: embedder)) }
                    next += 1
                }
            }
            // In order, up to the first photo not answered (after a stop).
            var outcomes: [Result<[DetectedFace], EraserKitError>] = []
            for outcome in answered {
                guard let outcome else { break }
                outcomes.append(outcome)
            }
            if !stopped, outcomes.count < urls.count {
                // Never expected: a photo left unanswered stops the scan (resumable) rather than
                // passing as a photo without faces.
                outcomes.append(.failure(.faces(.workerFailed("no answer for \(urls[outcomes.count].path)"))))
            }
            return outcomes
        }
    }

    /// One image's faces, or the error, as a value.
    private static func faces(in url: URL, with embedder: any FaceEmbedder) async -> Result<[DetectedFace], EraserKitError> {
        do throws(EraserKitError) {
            return .success(try await embedder.faces(in: url))
        } catch {
            return .failure(error)
        }
    }

    /// Whether the scan records `error` for the photo and goes on (an unreadable image).
    private static func isSkippable(_ error: EraserKitError) -> Bool {
        if case .faces(.unreadableImage) = error { return true }
        return false
    }

    /// Contacts: every calendar event (any date), `batchSize` at a time, through the contact matcher.
    private func runContactPhase(_ checkpoint: inout ScanCheckpoint) throws(EraserKitError) {
        let configuration = checkpoint.configuration
        guard let calendar else { throw .scan(.missingDependency("a calendar")) }
        guard let makeContactMatcher, let contact = configuration.contact else {
            throw .scan(.missingDependency("a contact matcher"))
        }
        let matcher = makeContactMatcher(contact)
        let total = try calendar.eventCount()
        if checkpoint.offset > 0,
           try calendar.events(offset: checkpoint.offset - 1, limit: 1).first.map({ ScanItem.event($0.id).key }) != checkpoint.lastKey {
            checkpoint.offset = 0
            checkpoint.lastKey = nil
        }
        var meter = ProgressMeter(phase: .contacts, configuration: configuration, total: total, done: checkpoint.offset, now: clock())
        publish(.scanning(meter.progress))
        while true {
            try checkCancelled()
            let events = try calendar.events(offset: checkpoint.offset, limit: configuration.batchSize)
            if events.isEmpty { break }
            var batch = ScanBatch()
            for event in events {
                guard let hit = matcher.match(event) else { continue }
                batch.matches.append(ScanMatch(
                    item: .event(event.id), kind: .calendarEvent, category: .contact,
                    confidence: hit.confidence, date: event.start, contactHit: hit))
            }
            checkpoint.offset += events.count
            checkpoint.lastKey = events.last.map { ScanItem.event($0.id).key }
            try store.commit(batch, checkpoint: checkpoint)
            publish(.scanning(meter.advance(to: checkpoint.offset, now: clock())))
            if events.count < configuration.batchSize { break }
        }
    }

    /// Calendar: the occurrences in each date range (one range per batch). An event is found when
    /// an occurrence overlaps the range (`ScanInstantRange.overlaps`); its date is its earliest
    /// such occurrence's start.
    private func runCalendarPhase(_ checkpoint: inout ScanCheckpoint) throws(EraserKitError) {
        guard let calendar else { throw .scan(.missingDependency("a calendar")) }
        let ranges = try checkpoint.configuration.instantRanges()
        var meter = ProgressMeter(
            phase: .calendar, configuration: checkpoint.configuration, total: ranges.count, done: checkpoint.offset, now: clock())
        publish(.scanning(meter.progress))
        while checkpoint.offset < ranges.count {
            try checkCancelled()
            let range = ranges[checkpoint.offset]
            var earliest: [EventID: Date] = [:]
            for occurrence in try calendar.occurrences(in: range.interval)
            where range.overlaps(eventStart: occurrence.start, eventEnd: occurrence.end) {
                earliest[occurrence.eventID] = min(earliest[occurrence.eventID] ?? occurrence.start, occurrence.start)
            }
            var batch = ScanBatch()
            for (id, date) in earliest.sorted(by: { $0.key < $1.key }) {
                batch.matches.append(ScanMatch(
                    item: .event(id), kind: .calendarEvent, category: .dateRange,
                    confidence: Self.dateRangeConfidence, date: date))
            }
            checkpoint.offset += 1
            checkpoint.lastKey = nil
            try store.commit(batch, checkpoint: checkpoint)
            publish(.scanning(meter.advance(to: checkpoint.offset, now: clock())))
        }
    }
}
