import Foundation
import KindredTestSupport
import StreakKit
import Testing

/// The offline queue: kept across restarts, drained in order, failures kept in place.
@Suite struct StreakStoreQueueTests {
    let day = Fixtures.monday

    @Test func theQueueSurvivesReopeningAndDrainsInOrder() throws {
        let folder = try TemporaryDirectory()
        let results = (0..<3).map { Fixtures.result(day: day.adding(days: $0)) }
        do {
            let store = try StreakStore.profile(at: folder.url)
            for result in results { _ = try store.record(result, now: Fixtures.instant(day, hour: 6)) }
        }
        let reopened = try StreakStore(path: folder.url.appendingPathComponent(StreakStore.fileName).path)
        #expect(try reopened.allResults() == results)
        let queued = try reopened.pendingUploads(kind: .result)
        #expect(queued.map(\.recordID) == results.map(\.id.rawValue))

        try reopened.failUploads([queued[0].seq], reason: "offline")
        let afterFailure = try reopened.pendingUploads(kind: .result)
        #expect(afterFailure.map(\.seq) == queued.map(\.seq))
        #expect(afterFailure[0].attempts == 1 && afterFailure[0].lastError == "offline")
        #expect(afterFailure[1].attempts == 0 && afterFailure[1].lastError == nil)

        try reopened.completeUploads(queued.prefix(2).map(\.seq))
        #expect(try reopened.pendingUploads(kind: .result).map(\.recordID) == [results[2].id.rawValue])
        let counts = try reopened.pendingUploadCounts()
        #expect(counts[.result] == 1 && counts[.score] == 3)
    }

    @Test func requeueingEverythingQueuesEachStoredRecordOnce() throws {
        let store = try StreakStore.inMemory()
        let result = Fixtures.result(day: day)
        _ = try store.record(result, now: Fixtures.instant(day, hour: 13))
        try store.completeUploads(try store.pendingUploads().map(\.seq))
        #expect(try store.pendingUploads().isEmpty)
        #expect(try store.requeueEverything(now: Fixtures.instant(day, hour: 14)) == 6)
        #expect(try store.requeueEverything(now: Fixtures.instant(day, hour: 15)) == 0)
        #expect(try store.pendingUploads(kind: .result).map(\.recordID) == [result.id.rawValue])
    }

    @Test func aScoreIDReadsBackItsGameAndDay() {
        let upload = PendingUpload(
            seq: 1, kind: .score, recordID: PendingUpload.scoreID(game: .queens, day: day), enqueuedAt: Date(), attempts: 0, lastError: nil)
        #expect(upload.recordID == "linkedin-queens|2026-03-02")
        #expect(upload.score?.game == .queens && upload.score?.day == day)
        let bad = PendingUpload(seq: 2, kind: .score, recordID: "queens-2026", enqueuedAt: Date(), attempts: 0, lastError: nil)
        #expect(bad.score == nil)
    }
}
