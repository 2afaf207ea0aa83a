import Foundation
import KindredTestSupport
import StreakKit
import Testing

/// `StreakStore`'s results: recorded once, queued with their day's score, read newest first, checked
/// against their game, and streaks derived from them.
@Suite struct StreakStoreResultsTests {
    let day = Fixtures.monday

    @Test func aResultIsStoredOnceAndQueuedWithItsScoreAndChangedAchievements() throws {
        let store = try StreakStore.inMemory()
        let result = Fixtures.result(day: day)
        let now = Fixtures.instant(day, hour: 13)
        let first = try store.record(result, now: now)
        #expect(first.inserted)
        #expect(first.result == result)
        let second = try store.record(result, now: now)
        #expect(!second.inserted)
        #expect(second.newlyUnlocked.isEmpty)
        #expect(try store.resultCount() == 1)
        let queue = try store.pendingUploads()
        #expect(queue.map(\.kind) == [.result, .score] + Array(repeating: .achievement, count: 5))
        #expect(queue.map(\.recordID) == [
            result.id.rawValue, "wordle|2026-03-02", "achievement.streak-master", "achievement.game-collector",
            "achievement.daily-devotee", "achievement.variety-player", "achievement.marathon-runner",
        ])
        #expect(queue[1].score?.game == .wordle && queue[1].score?.day == day)
        #expect(queue.map(\.seq) == queue.map(\.seq).sorted())
    }

    @Test func theSameSharePastedOnALaterDayIsADuplicateThatKeepsTheFirstDay() throws {
        let store = try StreakStore.inMemory()
        let first = Fixtures.result(day: day, puzzle: 1_400)
        let later = Fixtures.result(day: day.adding(days: 1), puzzle: 1_400)
        #expect(try store.record(first, now: Fixtures.instant(day, hour: 13)).inserted)
        let again = try store.record(later, now: Fixtures.instant(day.adding(days: 1), hour: 13))
        #expect(!again.inserted)
        #expect(again.result.id == first.id)
        #expect(try store.allResults() == [first])
    }

    @Test func resultsReadBackNewestFirstByGameAndLimitedAtMillisecondPrecision() throws {
        let store = try StreakStore.inMemory()
        let a = Fixtures.result(day: day, hour: 8)
        let b = StoreFixtures.connections(day: day, hour: 9)
        let c = Fixtures.result(day: day.adding(days: 1), hour: 7)
        let precise = GameResult(
            share: c.share, recordedAt: c.recordedAt.addingTimeInterval(0.123_456), day: c.day, minuteOfDay: c.minuteOfDay,
            utcOffsetSeconds: 0, timeZoneIdentifier: "UTC")
        _ = try store.record(contentsOf: [a, b, precise], now: Fixtures.instant(day, hour: 10))
        let all = try store.results()
        #expect(all.map(\.id) == [c.id, b.id, a.id])
        #expect(all[0].recordedAt.timeIntervalSince1970 == c.recordedAt.timeIntervalSince1970 + 0.123)
        #expect(try store.results(game: .wordle).map(\.id) == [c.id, a.id])
        #expect(try store.results(limit: 1).map(\.id) == [c.id])
        #expect(try store.allResults().map(\.id) == [a.id, b.id, c.id])
        #expect(try store.result(id: b.id) == b)
    }

    @Test func aResultOutsideItsGameOrOfAnUnknownGameIsATypedError() throws {
        let store = try StreakStore.inMemory()
        let tooMany = Fixtures.result(day: day, score: 9)
        #expect(throws: StreakStoreError.invalidResult(
            id: tooMany.id.rawValue, reason: "the score, maximum or puzzle is outside Wordle's bounds")) {
            try store.record(tooMany)
        }
        let unknown = Fixtures.result(GameID(rawValue: "tetris"), day: day)
        #expect(throws: StreakStoreError.invalidResult(id: unknown.id.rawValue, reason: "no game has the id tetris")) {
            try store.record(unknown)
        }
        let batch = [Fixtures.result(day: day), tooMany]
        #expect(throws: StreakStoreError.self) { try store.record(contentsOf: batch) }
        #expect(try store.resultCount() == 0)
        #expect(try store.pendingUploads().isEmpty)
    }

    @Test func streaksAreDerivedFromTheStoredDays() throws {
        let store = try StreakStore.inMemory()
        for offset in 0..<3 { _ = try store.record(Fixtures.result(day: day.adding(days: offset)), now: Fixtures.instant(day, hour: 0)) }
        _ = try store.record(StoreFixtures.connections(day: day, score: 7, completed: false), now: Fixtures.instant(day, hour: 0))
        let now = Fixtures.instant(day.adding(days: 2), hour: 20)
        let streaks = try store.streaks(now: now, timeZone: Fixtures.utc)
        #expect(streaks.map(\.game) == [.wordle, .connections])
        #expect(streaks[0].current == 3 && streaks[0].longest == 3)
        #expect(streaks[0].status(now: now, timeZone: Fixtures.utc) == .safe)
        #expect(streaks[1].current == 0)
        let later = try store.streak(for: .wordle, now: Fixtures.instant(day.adding(days: 4), hour: 9), timeZone: Fixtures.utc)
        #expect(later.current == 0 && later.longest == 3)
        #expect(throws: StreakStoreError.self) { try store.streak(for: "tetris", timeZone: Fixtures.utc) }
    }

    @Test func anOldResultIsQueuedWithoutAScore() throws {
        let store = try StreakStore.inMemory()
        let old = Fixtures.result(day: day)
        _ = try store.record(old, now: Fixtures.instant(day.adding(days: StreakStore.scorePublishWindowDays + 1), hour: 9))
        #expect(try store.pendingUploads(kind: .score).isEmpty)
        #expect(try store.pendingUploads(kind: .result).map(\.recordID) == [old.id.rawValue])
    }
}
