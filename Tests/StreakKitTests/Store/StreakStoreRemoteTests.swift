import Foundation
import StreakKit
import Testing

/// Pulled results: the later change wins, tombstones delete, nothing is queued again.
@Suite struct StreakStoreRemoteTests {
    let day = Fixtures.monday

    @Test func aLaterChangeReplacesAnEqualOneIsIgnoredAndATombstoneDeletes() throws {
        let store = try StreakStore.inMemory()
        let result = Fixtures.result(day: day, score: 4)
        let t0 = Fixtures.instant(day, hour: 12)
        let first = try store.applyRemote(results: [SyncedResult(result: result, updatedAt: t0, deleted: false)], now: t0)
        #expect(first.applied == 1 && first.ignored == 0 && first.rejected.isEmpty)
        #expect(try store.pendingUploads(kind: .result).isEmpty)
        #expect(try store.pendingUploads(kind: .score).isEmpty)

        let better = Fixtures.result(day: day, score: 2)
        let same = try store.applyRemote(results: [SyncedResult(result: better, updatedAt: t0, deleted: false)], now: t0)
        #expect(same.applied == 0 && same.ignored == 1)
        #expect(try store.result(id: result.id)?.score == 4)
        let later = try store.applyRemote(
            results: [SyncedResult(result: better, updatedAt: t0.addingTimeInterval(1), deleted: false)], now: t0)
        #expect(later.applied == 1)
        #expect(try store.result(id: result.id)?.score == 2)
        let tombstone = try store.applyRemote(
            results: [SyncedResult(result: better, updatedAt: t0.addingTimeInterval(2), deleted: true)], now: t0)
        #expect(tombstone.applied == 1)
        #expect(try store.resultCount() == 0)
    }

    @Test func ofTwoRecordingsOfOnePuzzleTheEarlierDayIsKeptAndForeignGamesAreRejected() throws {
        let store = try StreakStore.inMemory()
        let later = Fixtures.result(day: day.adding(days: 1), puzzle: 1_500)
        let earlier = Fixtures.result(day: day, puzzle: 1_500)
        _ = try store.record(later, now: Fixtures.instant(day, hour: 23))
        let t = Fixtures.instant(day, hour: 23)
        let unknown = Fixtures.result(GameID(rawValue: "future-game"), day: day)
        let outcome = try store.applyRemote(results: [
            SyncedResult(result: earlier, updatedAt: t, deleted: false), SyncedResult(result: unknown, updatedAt: t, deleted: false),
        ], now: t)
        #expect(outcome.applied == 1)
        #expect(outcome.rejected == [unknown.id.rawValue])
        #expect(try store.allResults() == [earlier])
    }
}
