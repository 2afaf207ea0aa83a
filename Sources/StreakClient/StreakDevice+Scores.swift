import Foundation
import KindredClient
import StreakAPI
import StreakKit

/// Leaderboard scores: each queued day score becomes a payload kept in the secure store
/// (`PendingScoreVault`), is published from there, and leaves it once the server has it.
extension StreakDevice {
    /// Computes the payload of every score waiting in the offline queue and keeps it in the secure
    /// store, replacing an older payload of the same game and day. Nothing is sent.
    /// - Throws: `.store`; `.secureStore`.
    public func stagePendingScores() throws(StreakClientError) {
        let queued = try local { () throws(StreakStoreError) in try store.pendingUploads(kind: .score, limit: Int.max) }
        try stage(queued)
    }

    /// Publishes the scores kept in the secure store (at launch and when the network comes back),
    /// oldest first; each leaves the store, and its queue entry, once the server has it.
    /// - Returns: the published and dropped counts (`publishedScores`, `droppedScores`, `stillPending`).
    /// - Throws: `.guestMode` while a guest plays; `.client` on the first failure (that score and
    ///   the later ones stay kept); `.store`; `.secureStore`.
    @discardableResult
    public func publishPendingScores() async throws(StreakClientError) -> SyncReport {
        try refuseInGuestMode()
        var report = SyncReport()
        try await publishKeptScores(into: &report)
        report.stillPending = try pendingScores.scores().count
        return report
    }

    /// Stages `items` (queued scores), then publishes everything the secure store keeps.
    func publishScores(_ items: [PendingUpload], into report: inout SyncReport) async throws(StreakClientError) {
        guard !items.isEmpty else { return }
        try stage(items)
        try await publishKeptScores(into: &report)
    }

    /// Publishes every kept score; its queue entries are completed (or failed) with it.
    func publishKeptScores(into report: inout SyncReport) async throws(StreakClientError) {
        guard try !pendingScores.scores().isEmpty else { return }
        let queued = try local { () throws(StreakStoreError) in try store.pendingUploads(kind: .score, limit: Int.max) }
        let entries = Dictionary(grouping: queued, by: \.recordID)
        let outcome = try await pendingScores.publishAll { (score: PendingScore) async throws(StreakClientError) -> PendingScoreVault.Outcome in
            let items = entries[score.id] ?? []
            let outcome: PendingScoreVault.Outcome
            do throws(StreakClientError) {
                outcome = try await send(score)
            } catch {
                try failed(items, error)
            }
            try local { () throws(StreakStoreError) in try store.completeUploads(items.map(\.seq)) }
            return outcome
        }
        report.publishedScores += outcome.published.count
        report.droppedScores += outcome.refused.count
    }

    /// Keeps the payloads of `items`; an entry with nothing to publish (its game unknown, its
    /// results deleted) leaves the queue and the secure store.
    private func stage(_ items: [PendingUpload]) throws(StreakClientError) {
        var staged: [PendingScore] = []
        var empty: [PendingUpload] = []
        for item in items {
            if let score = try payload(for: item) { staged.append(score) } else { empty.append(item) }
        }
        try pendingScores.keep(staged)
        try pendingScores.remove(ids: Set(empty.map(\.recordID)))
        try local { () throws(StreakStoreError) in try store.completeUploads(empty.map(\.seq)) }
    }

    /// One day's score of one game: the day's best result, with the streak as it stood that day;
    /// `nil` when there is nothing to publish.
    func payload(for item: PendingUpload) throws(StreakClientError) -> PendingScore? {
        guard let (gameID, day) = item.score, let game = store.catalog.game(gameID) else { return nil }
        let results = try local { () throws(StreakStoreError) in try store.results(game: gameID) }.reversed()
        let ofDay = results.filter { $0.day == day }
        guard var best = ofDay.first else { return nil }
        for result in ofDay.dropFirst() where result.isBetter(than: best, scoring: game.scoring) { best = result }
        var streak = Streak(game: game.id, cadence: game.cadence)
        for result in results where result.day <= day { streak.record(result) }
        return PendingScore(
            game: gameID, day: day, score: best.score, max: best.maxScore, completed: best.completed,
            currentStreak: min(streak.current, 100_000),
            timeZone: TimeZone(identifier: best.timeZoneIdentifier) != nil ? best.timeZoneIdentifier : nil)
    }

    /// Sends one score: `.published` when stored, `.refused` for `invalid_score` (never accepted).
    private func send(_ score: PendingScore) async throws(StreakClientError) -> PendingScoreVault.Outcome {
        let body = StreakAPI.Components.Schemas.StreakSyncScorePublish(
            score: score.score, max: score.max, completed: score.completed, currentStreak: score.currentStreak,
            timeZone: score.timeZone)
        let output = try await call { [app] in
            try await $0.publishStreakSyncScore(
                path: .init(gameId: score.game.rawValue, date: score.day.description), headers: .init(xKindredApp: app),
                body: .json(body))
        }
        switch output {
        case .ok: return .published
        case .unprocessableContent where Self.failure(output).serverCode == "invalid_score": return .refused
        default: throw Self.failure(output)
        }
    }
}
