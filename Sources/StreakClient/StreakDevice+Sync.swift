import Foundation
import KindredClient
import StreakAPI
import StreakKit

/// What a sync did.
public struct SyncReport: Hashable, Sendable {
    /// Results the server stored (new or later than its copy).
    public var uploadedResults = 0
    /// Achievement records the server stored.
    public var uploadedAchievements = 0
    /// Day scores published to the leaderboards.
    public var publishedScores = 0
    /// Scores the server refused for good (a day outside the leaderboards' range): dropped from the queue.
    public var droppedScores = 0
    /// Pulled results applied here.
    public var pulledResults = 0
    /// Pulled achievement categories that changed here.
    public var pulledAchievements = 0
    /// Pulled results this device's catalog does not admit (kept on the server, not here).
    public var rejectedResults: [String] = []
    /// Tiers first reached through pulled results.
    public var newlyUnlocked: [TierUnlock] = []
    /// What still waits in the queue afterwards.
    public var stillPending = 0
}

/// The sync: the offline queue drained in order, then other devices' changes pulled.
extension StreakDevice {
    /// Cursor names in the store's sync state.
    static let resultsCursor = "results-cursor"
    static let achievementsCursor = "achievements-cursor"

    /// Uploads the queue (results, achievements, then the day scores they change, in queue order,
    /// 500 at a time), pulls the results and achievements changed elsewhere, and uploads what
    /// that changed. A failed upload stays queued, in its place, with its reason.
    /// - Throws: `.guestMode` while a guest plays (nothing is sent, the host's queue is kept);
    ///   `.client` when the server or the network fails (what was done stays done).
    @discardableResult
    public func sync() async throws(StreakClientError) -> SyncReport {
        try refuseInGuestMode()
        var report = SyncReport()
        // The queued scores' payloads go to the secure store before anything is sent.
        try stagePendingScores()
        try await drain(into: &report)
        try await pullResults(into: &report)
        try await pullAchievements(into: &report)
        try await drain(into: &report)
        report.stillPending = try local { () throws(StreakStoreError) in try store.pendingUploadCounts().values.reduce(0, +) }
        return report
    }

    // MARK: - Upload

    private func drain(into report: inout SyncReport) async throws(StreakClientError) {
        while true {
            let batch = try local { () throws(StreakStoreError) in try store.pendingUploads(limit: 500) }
            guard !batch.isEmpty else { break }
            try await uploadResults(batch.filter { $0.kind == .result }, into: &report)
            try await uploadAchievements(batch.filter { $0.kind == .achievement }, into: &report)
            try await publishScores(batch.filter { $0.kind == .score }, into: &report)
        }
        // Scores kept by an earlier run whose queue entries are gone.
        try await publishKeptScores(into: &report)
    }

    private func uploadResults(_ pending: [PendingUpload], into report: inout SyncReport) async throws(StreakClientError) {
        guard !pending.isEmpty else { return }
        var records: [SyncRecords.RemoteResult] = []
        let changedAt = now()
        for item in pending {
            // A result deleted since it was queued has nothing to upload; it leaves the queue.
            guard let result = try local({ () throws(StreakStoreError) in try store.result(id: GameResultID(rawValue: item.recordID)) }) else {
                continue
            }
            // A recorded result never changes on the device: its change time is its recording time
            // (stable, so uploading it again is ignored), never later than now.
            records.append(try SyncRecords.remote(result, updatedAt: min(result.recordedAt, changedAt)))
        }
        if !records.isEmpty {
            let body = StreakAPI.Components.Schemas.StreakSyncResultBatch(results: records)
            let output: Operations.UpsertStreakSyncResults.Output
            do {
                output = try await call { [app] in try await $0.upsertStreakSyncResults(headers: .init(xKindredApp: app), body: .json(body)) }
            } catch {
                try failed(pending, error)
            }
            guard case .ok(let ok) = output, case .json(let summary) = ok.body else { try failed(pending, Self.failure(output)) }
            report.uploadedResults += summary.applied
        }
        try local { () throws(StreakStoreError) in try store.completeUploads(pending.map(\.seq)) }
    }

    private func uploadAchievements(_ pending: [PendingUpload], into report: inout SyncReport) async throws(StreakClientError) {
        guard !pending.isEmpty else { return }
        let progress = try local { () throws(StreakStoreError) in try store.achievements() }
        let byID = Dictionary(progress.map { ($0.id.rawValue, $0) }) { first, _ in first }
        let changedAt = now()
        for chunk in stride(from: 0, to: pending.count, by: 200).map({ Array(pending[$0..<min($0 + 200, pending.count)]) }) {
            let records = chunk.compactMap { byID[$0.recordID].map { SyncRecords.remote($0, updatedAt: changedAt) } }
            if !records.isEmpty {
                let body = StreakAPI.Components.Schemas.StreakSyncAchievementBatch(achievements: records)
                let output: Operations.UpsertStreakSyncAchievements.Output
                do {
                    output = try await call { [app] in
                        try await $0.upsertStreakSyncAchievements(headers: .init(xKindredApp: app), body: .json(body))
                    }
                } catch {
                    try failed(chunk, error)
                }
                guard case .ok(let ok) = output, case .json(let summary) = ok.body else { try failed(chunk, Self.failure(output)) }
                report.uploadedAchievements += summary.applied
            }
            try local { () throws(StreakStoreError) in try store.completeUploads(chunk.map(\.seq)) }
        }
    }

    /// Keeps `items` queued with the reason, then throws `error`.
    func failed(_ items: [PendingUpload], _ error: StreakClientError) throws(StreakClientError) -> Never {
        try local { () throws(StreakStoreError) in try store.failUploads(items.map(\.seq), reason: error.description) }
        throw error
    }

    // MARK: - Pull

    private func pullResults(into report: inout SyncReport) async throws(StreakClientError) {
        while true {
            let cursor = try local { () throws(StreakStoreError) in try store.syncState(Self.resultsCursor) }
            let output = try await call { [app] in
                try await $0.listStreakSyncResultChanges(query: .init(cursor: cursor, limit: 500), headers: .init(xKindredApp: app))
            }
            guard case .ok(let ok) = output, case .json(let page) = ok.body else { throw Self.failure(output) }
            var synced: [SyncedResult] = []
            for remote in page.results {
                do {
                    synced.append(try SyncRecords.synced(remote))
                } catch {
                    report.rejectedResults.append(remote.id)
                }
            }
            let at = now()
            let outcome = try local { () throws(StreakStoreError) in try store.applyRemote(results: synced, now: at) }
            report.pulledResults += outcome.applied
            report.rejectedResults += outcome.rejected
            report.newlyUnlocked += outcome.newlyUnlocked
            try local { () throws(StreakStoreError) in try store.setSyncState(Self.resultsCursor, page.cursor) }
            if !page.hasMore { return }
        }
    }

    private func pullAchievements(into report: inout SyncReport) async throws(StreakClientError) {
        while true {
            let cursor = try local { () throws(StreakStoreError) in try store.syncState(Self.achievementsCursor) }
            let output = try await call { [app] in
                try await $0.listStreakSyncAchievementChanges(query: .init(cursor: cursor, limit: 200), headers: .init(xKindredApp: app))
            }
            guard case .ok(let ok) = output, case .json(let page) = ok.body else { throw Self.failure(output) }
            let progress = page.achievements.compactMap { try? SyncRecords.progress($0) }
            let at = now()
            report.pulledAchievements += try local { () throws(StreakStoreError) in try store.applyRemote(achievements: progress, now: at) }
            try local { () throws(StreakStoreError) in try store.setSyncState(Self.achievementsCursor, page.cursor) }
            if !page.hasMore { return }
        }
    }
}
