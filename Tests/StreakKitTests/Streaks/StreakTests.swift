import Foundation
@testable import StreakKit
import Testing

@Suite struct StreakTests {
    let monday = Fixtures.monday
    func day(_ n: Int) -> LocalDay { Fixtures.monday.adding(days: n) }
    func streak(_ results: [GameResult], now: Date, zone: TimeZone = Fixtures.utc, game: Game = .wordle) -> Streak {
        StreakCalculator.streak(for: game, results: results, now: now, timeZone: zone)
    }
    func noon(_ n: Int) -> Date { Fixtures.instant(day(n), hour: 12) }

    @Test func consecutiveDaysGrowIt() {
        let s = streak((0..<5).map { Fixtures.result(day: day($0)) }, now: noon(4))
        #expect(s.current == 5 && s.longest == 5)
        #expect(s.status(now: noon(4), timeZone: Fixtures.utc) == .safe)
    }

    @Test func aGapRestartsIt() {
        let s = streak([0, 1, 2, 4, 5].map { Fixtures.result(day: day($0)) }, now: noon(5))
        #expect(s.current == 2 && s.longest == 3)
    }

    @Test func aFailureResetsIt() {
        var results = [0, 1, 2].map { Fixtures.result(day: day($0)) }
        results.append(Fixtures.result(day: day(3), completed: false))
        #expect(streak(results, now: noon(3)).current == 0)
        #expect(streak(results, now: noon(3)).longest == 3)
        results.append(Fixtures.result(day: day(4)))
        #expect(streak(results, now: noon(4)).current == 1)
    }

    @Test func aCompletedResultOnADayWithAFailureKeepsTheDay() {
        // Pips: the hard puzzle abandoned, the easy one solved later the same day.
        var results = [0, 1].map { Fixtures.result(.pips, day: day($0)) }
        results.append(Fixtures.result(.pips, day: day(2), hour: 9, completed: false, variant: "hard"))
        results.append(Fixtures.result(.pips, day: day(2), hour: 10, variant: "easy"))
        #expect(streak(results, now: noon(2), game: .pips).current == 3)
        var incremental = Streak(game: .pips)
        for result in results {
            let recorded = incremental.record(result)
            #expect(recorded)
        }
        #expect(incremental.current == 3)
    }

    @Test func severalResultsOnOneDayCountOnce() {
        let results = [Fixtures.result(day: day(0), hour: 8), Fixtures.result(day: day(0), hour: 20), Fixtures.result(day: day(1))]
        #expect(streak(results, now: noon(1)).current == 2)
    }

    @Test func theOrderOfTheHistoryDoesNotMatter() {
        var random = SeededGenerator(seed: 7)
        let results = [0, 1, 2, 4, 5, 6, 7].map { Fixtures.result(day: day($0)) } + [Fixtures.result(day: day(3), completed: false)]
        let expected = streak(results, now: noon(7))
        for _ in 0..<20 { #expect(streak(results.shuffled(using: &random), now: noon(7)) == expected) }
        #expect(expected.current == 4 && expected.longest == 4)
    }

    @Test func normalisationAtLaunchBreaksAStreakWithAMissedDay() {
        let s = streak([0, 1, 2].map { Fixtures.result(day: day($0)) }, now: noon(2))
        #expect(s.normalized(now: noon(3), timeZone: Fixtures.utc).current == 3)
        #expect(s.status(now: noon(3), timeZone: Fixtures.utc) == .atRisk)
        #expect(s.isAtRisk(now: Fixtures.instant(day(3), hour: 23, minute: 59), timeZone: Fixtures.utc))
        #expect(s.normalized(now: noon(4), timeZone: Fixtures.utc).current == 0)
        #expect(s.normalized(now: noon(4), timeZone: Fixtures.utc).longest == 3)
        #expect(s.status(now: noon(4), timeZone: Fixtures.utc) == .inactive)
        #expect(streak([], now: noon(0)).status(now: noon(0), timeZone: Fixtures.utc) == .inactive)
    }

    @Test func recordingOutOfOrderAsksForARecomputation() {
        var s = Streak(game: .wordle)
        let inOrder = s.record(Fixtures.result(day: day(1)))
        let earlier = s.record(Fixtures.result(day: day(0)))
        let otherGame = s.record(Fixtures.result(.tango, day: day(2)))
        #expect(inOrder && !earlier && !otherGame)
        #expect(s.current == 1)
    }

    // MARK: - Time zones: the day is the local date where the result was recorded.

    @Test func flyingEastDoesNotDropADay() {
        // Monday 23:30 in New York (-5), then Tuesday 09:00 in London (+0): two days, two plays.
        let results = [
            Fixtures.result(day: day(0), hour: 23, minute: 30, offsetHours: -5),
            Fixtures.result(day: day(1), hour: 9, offsetHours: 0),
        ]
        #expect(streak(results, now: Fixtures.instant(day(1), hour: 10), zone: Fixtures.london).current == 2)
    }

    @Test func flyingWestDoesNotDoubleCountADay() {
        // Monday 23:00 in London (= 18:00 in New York), then Monday 19:00 in New York: one day.
        let results = [
            Fixtures.result(day: day(0), hour: 23, offsetHours: 0),
            Fixtures.result(day: day(0), hour: 19, offsetHours: -5),
        ]
        let s = streak(results, now: Fixtures.instant(day(0), hour: 20, offsetHours: -5), zone: TimeZone(secondsFromGMT: -5 * 3600)!)
        #expect(s.current == 1)
    }

    @Test func aDayPlayedAheadStaysCountedAfterFlyingBack() {
        // Tuesday 01:00 in Tokyo (+9) = Monday 11:00 in New York (-5, winter); back in New York it is
        // still Monday: the streak counts Tuesday and is not broken or at risk.
        let results = [
            Fixtures.result(day: day(0), hour: 10, offsetHours: 9),
            Fixtures.result(day: day(1), hour: 1, offsetHours: 9),
        ]
        let nowInNewYork = Fixtures.instant(day(0), hour: 13, offsetHours: -5)
        let zone = TimeZone(secondsFromGMT: -5 * 3600)!
        let s = streak(results, now: nowInNewYork, zone: zone)
        #expect(s.current == 2)
        #expect(s.status(now: nowInNewYork, timeZone: zone) == .safe)
    }

    @Test func crossingTheDateLineIsNotAGap() {
        // Monday 20:00 in Los Angeles (-7), then Wednesday 08:00 in Sydney (+10): Tuesday never
        // happened on the player's clock. Monday 20:00 in LA is Tuesday 13:00 in Sydney.
        let results = [
            Fixtures.result(day: day(0), hour: 20, offsetHours: -7),
            Fixtures.result(day: day(2), hour: 8, offsetHours: 10),
        ]
        let sydney = TimeZone(secondsFromGMT: 10 * 3600)!
        #expect(streak(results, now: Fixtures.instant(day(2), hour: 9, offsetHours: 10), zone: sydney).current == 2)
        // The same two days in one zone are a real gap.
        let stayed = [Fixtures.result(day: day(0), hour: 20, offsetHours: 10), Fixtures.result(day: day(2), hour: 8, offsetHours: 10)]
        #expect(streak(stayed, now: Fixtures.instant(day(2), hour: 9, offsetHours: 10), zone: sydney).current == 1)
    }

    @Test func normalisationAfterCrossingTheDateLineKeepsTheStreak() {
        let s = streak([Fixtures.result(day: day(0), hour: 20, offsetHours: -7)], now: Fixtures.instant(day(0), hour: 21, offsetHours: -7), zone: TimeZone(secondsFromGMT: -7 * 3600)!)
        let sydney = TimeZone(secondsFromGMT: 10 * 3600)!
        let landed = Fixtures.instant(day(2), hour: 7, offsetHours: 10)
        #expect(s.normalized(now: landed, timeZone: sydney).current == 1)
        #expect(s.status(now: landed, timeZone: sydney) == .atRisk)
    }

    @Test func realTimeZonesAcrossADaylightSavingChange() throws {
        // New York springs forward on 2026-03-08; plays at 08:00 local every day around it.
        let catalog = Fixtures.catalog
        var results: [GameResult] = []
        for n in 0..<4 {
            let local = LocalDay(year: 2026, month: 3, day: 6 + n)!
            let offset: Double = local >= LocalDay(year: 2026, month: 3, day: 8)! ? -4 : -5
            let date = Fixtures.instant(local, hour: 8, offsetHours: offset)
            results.append(try catalog.record("Wordle 1,\(700 + n) 3/6", at: date, in: Fixtures.newYork))
        }
        #expect(results.map(\.day.day) == [6, 7, 8, 9])
        #expect(results.allSatisfy { $0.minuteOfDay == 480 })
        let now = Fixtures.instant(LocalDay(year: 2026, month: 3, day: 9)!, hour: 9, offsetHours: -4)
        #expect(StreakCalculator.streak(for: .wordle, results: results, now: now, timeZone: Fixtures.newYork).current == 4)
    }

    // MARK: - Weekly games

    @Test func weeklyGamesCountWeeks() {
        let results = [0, 8, 20].map { Fixtures.result(.quordleWeekly, day: day($0)) }  // weeks 0, 1, 2 (day 20 is a Sunday)
        let s = streak(results, now: noon(20), game: .quordleWeekly)
        #expect(s.current == 3)
        #expect(s.status(now: noon(20), timeZone: Fixtures.utc) == .safe)
        #expect(s.status(now: noon(21), timeZone: Fixtures.utc) == .atRisk)
        #expect(s.status(now: noon(27), timeZone: Fixtures.utc) == .atRisk)
        #expect(s.normalized(now: noon(28), timeZone: Fixtures.utc).current == 0)
        let gap = streak([0, 15].map { Fixtures.result(.quordleWeekly, day: day($0)) }, now: noon(15), game: .quordleWeekly)
        #expect(gap.current == 1)
    }

    @Test func everyGameGetsAStreak() {
        let results = [Fixtures.result(day: day(0)), Fixtures.result(.tango, day: day(0))]
        let all = StreakCalculator.streaks(in: Fixtures.catalog, results: results, now: noon(0), timeZone: Fixtures.utc)
        #expect(all.count == Game.all.count)
        #expect(all[.wordle]?.current == 1 && all[.tango]?.current == 1 && all[.zip]?.current == 0)
    }
}
