import Foundation
import StreakKit

/// `kindred-streak-bench --analytics`: StreakKit's analytics over 10 years of daily results for the
/// 17 daily games (every game every day, in memory: analytics are pure functions over `[GameResult]`).
///
/// - cold: the fingerprint of every result, then a fresh `AnalyticsCache` computing the dashboard
///   (today / 7 / 30 / 365-day summaries, the 365-day summary of each game, the guess distributions
///   of Wordle, Nerdle and Pinpoint, Strands hints, Pips times, this ISO week's recap) from one
///   `AnalyticsIndex` built for it;
/// - cold, straightforward: the same dashboard from the reference `Analytics` functions (each reads
///   every result), the figure the index is measured against;
/// - cached: the fingerprint of every result again, then the same lookup served from the warmed cache;
/// - cache hit alone: the lookup with the fingerprint already known (an owner that keeps it current as
///   it records, or a store that counts in SQL);
/// - baseline: one plain pass summing the scores of the same results.
/// Each is the median of ROUNDS single runs, timed one by one.
/// Usage: kindred-streak-bench --analytics [--years Y] [--rounds R] [--json]   (default 10 years, 21 rounds)
enum AnalyticsBench {
    /// Everything the analytics screen shows.
    struct Dashboard: Hashable, Sendable {
        var summaries: [RangeSummary]
        var perGame: [RangeSummary]
        var distributions: [GuessDistribution?]
        var hints: HintSummary
        var pips: [PipsTimes]
        var recap: WeeklyRecap
    }

    static let utc = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current
    /// The catalog the deep dives read the games' bounds from (built once, as an app would).
    static let catalog = GameCatalog()

    static func run(_ arguments: [String]) -> Never {
        var years = 10, rounds = 21, json = false
        var rest = arguments
        while let argument = rest.first {
            rest.removeFirst()
            switch argument {
            case "--years": years = max(1, Int(rest.first ?? "") ?? years); rest = Array(rest.dropFirst())
            case "--rounds": rounds = max(1, Int(rest.first ?? "") ?? rounds); rest = Array(rest.dropFirst())
            case "--json": json = true
            default:
                FileHandle.standardError.write(Data("usage: kindred-streak-bench --analytics [--years Y] [--rounds R] [--json]\n".utf8))
                exit(2)
            }
        }
        let games = Game.all.filter { $0.cadence == .daily }
        guard let today = LocalDay(year: 2026, month: 11, day: 26) else { exit(1) }
        let now = Date(timeIntervalSince1970: Double(today.ordinal * 86_400 + 20 * 3_600))
        let results: [GameResult]
        do {
            results = try history(games: games, days: years * 365 + years / 4, endingOn: today)
        } catch {
            FileHandle.standardError.write(Data("an example share does not parse: \(error)\n".utf8))
            exit(1)
        }
        let compute = { dashboard(results, games: games, now: now) }

        // Correctness first: the figures are for a dashboard that holds what was built, and the index
        // answers what the straightforward functions answer.
        let expected = dashboard(results, games: games, now: now)
        guard expected.summaries.last?.played == 365 * games.count, expected.perGame.allSatisfy({ $0.played == 365 }) else {
            FileHandle.standardError.write(Data("the dashboard does not count the built history\n".utf8))
            exit(1)
        }
        guard referenceDashboard(results, games: games, now: now) == expected else {
            FileHandle.standardError.write(Data("the index's dashboard differs from the straightforward one\n".utf8))
            exit(1)
        }
        var warm = AnalyticsCache<String, Dashboard>()
        _ = warm.value(for: "dashboard", fingerprint: AnalyticsFingerprint(of: results), compute: compute)

        let known = AnalyticsFingerprint(of: results)
        var cold: [Double] = [], reference: [Double] = [], cached: [Double] = [], hit: [Double] = [], baseline: [Double] = []
        var checksum = 0
        for _ in 0..<rounds {
            baseline.append(time {
                var sum = 0
                for result in results { sum &+= result.score }
                checksum &+= sum
            })
            cold.append(time {
                var cache = AnalyticsCache<String, Dashboard>()
                let value = cache.value(for: "dashboard", fingerprint: AnalyticsFingerprint(of: results), compute: compute)
                checksum &+= value.summaries.count
            })
            reference.append(time {
                var cache = AnalyticsCache<String, Dashboard>()
                let value = cache.value(for: "dashboard", fingerprint: AnalyticsFingerprint(of: results)) {
                    referenceDashboard(results, games: games, now: now)
                }
                checksum &+= value.summaries.count
            })
            cached.append(time {
                let value = warm.value(for: "dashboard", fingerprint: AnalyticsFingerprint(of: results), compute: compute)
                checksum &+= value.perGame.count
            })
            hit.append(time {
                let value = warm.value(for: "dashboard", fingerprint: known, compute: compute)
                checksum &+= value.pips.count
            })
        }
        guard warm.computations == 1, warm.value(for: "dashboard", fingerprint: AnalyticsFingerprint(of: results), compute: compute) == expected else {
            FileHandle.standardError.write(Data("the cache recomputed or served another dashboard\n".utf8))
            exit(1)
        }
        let coldMS = median(cold) * 1_000, cachedMS = median(cached) * 1_000, baseMS = median(baseline) * 1_000
        let hitMS = median(hit) * 1_000, referenceMS = median(reference) * 1_000
        if json {
            let object: [String: Any] = [
                "results": results.count, "games": games.count, "years": years, "rounds": rounds,
                "cold_ms": round3(coldMS), "cold_reference_ms": round3(referenceMS), "cached_ms": round3(cachedMS), "cache_hit_ms": round3(hitMS), "baseline_ms": round3(baseMS),
                "cold_over_baseline": round3(coldMS / baseMS), "cached_over_baseline": round3(cachedMS / baseMS),
                "cold_target_ms": 50, "cached_target_ms": 1, "cold_within_target": coldMS < 50, "cached_within_target": cachedMS < 1,
                "checksum": checksum,
            ]
            if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) {
                print(String(decoding: data, as: UTF8.self))
            }
        } else {
            func row(_ name: String, _ ms: Double, _ note: String) -> String {
                name.padding(toLength: 44, withPad: " ", startingAt: 0) + String(format: "%10.3f ms", ms) + "  " + note
            }
            print("history: \(results.count) results, \(games.count) daily games × \(years) years, \(rounds) rounds (median)")
            print(row("cold recomputation (fingerprint + dashboard)", coldMS, String(format: "%.1f× baseline, target < 50 ms: ", coldMS / baseMS) + (coldMS < 50 ? "met" : "MISSED")))
            print(row("cold, straightforward functions (reference)", referenceMS, String(format: "%.1f× baseline, %.1f× the index's", referenceMS / baseMS, referenceMS / coldMS)))
            print(row("cached read (fingerprint + cache hit)", cachedMS, String(format: "%.2f× baseline, target < 1 ms: ", cachedMS / baseMS) + (cachedMS < 1 ? "met" : "MISSED")))
            print(row("cache hit alone (fingerprint known)", hitMS, String(format: "%.3f× baseline", hitMS / baseMS)))
            print(row("baseline: one pass summing the scores", baseMS, ""))
        }
        exit(0)
    }

    /// The dashboard of `results` at `now`, from one index.
    static func dashboard(_ results: [GameResult], games: [Game], now: Date) -> Dashboard {
        let index = AnalyticsIndex(results)
        return Dashboard(
            summaries: AnalyticsRange.allCases.map { index.summary(range: $0, now: now, timeZone: utc) },
            perGame: games.map { index.summary(range: .year, game: $0.id, now: now, timeZone: utc) },
            distributions: [GameID.wordle, .nerdle, .pinpoint].map { index.guessDistribution(game: $0, catalog: catalog) },
            hints: index.strandsHints(), pips: index.pipsTimes(),
            recap: index.recap(week: ISOWeek(containing: LocalDay(now, in: utc))))
    }

    /// The same dashboard from the straightforward functions, each reading every result.
    static func referenceDashboard(_ results: [GameResult], games: [Game], now: Date) -> Dashboard {
        Dashboard(
            summaries: AnalyticsRange.allCases.map { Analytics.summary(of: results, range: $0, now: now, timeZone: utc) },
            perGame: games.map { Analytics.summary(of: results, range: .year, game: $0.id, now: now, timeZone: utc) },
            distributions: [GameID.wordle, .nerdle, .pinpoint].map { Analytics.guessDistribution(of: results, game: $0, catalog: catalog) },
            hints: Analytics.strandsHints(of: results), pips: Analytics.pipsTimes(of: results),
            recap: Analytics.recap(of: results, week: ISOWeek(containing: LocalDay(now, in: utc))))
    }

    /// One result per game per day for `days` days up to `today`: each game's example share with its
    /// puzzle number counting up; Wordle and Nerdle scores vary from 1 to 6 with a miss every 13th day.
    static func history(games: [Game], days: Int, endingOn today: LocalDay) throws -> [GameResult] {
        var results: [GameResult] = []
        results.reserveCapacity(games.count * days)
        let templates = try games.map { try catalog.parse($0.exampleShare, as: $0.id) }
        for offset in 0..<days {
            let day = LocalDay(ordinal: today.ordinal - days + 1 + offset)
            for (index, share) in templates.enumerated() {
                var score = share.score, completed = share.completed
                if share.game == .wordle || share.game == .nerdle {
                    score = offset % 13 == 0 ? 7 : 1 + (offset * 7 + index) % 6
                    completed = score <= 6
                }
                let minute = (7 + index % 14) * 60 + offset % 60
                let result = ParsedShare(
                    game: share.game, puzzle: share.puzzle.map { _ in 100 + offset }, variant: share.variant, score: score,
                    maxScore: share.maxScore, completed: completed, details: share.details)
                results.append(GameResult(
                    share: result, recordedAt: Date(timeIntervalSince1970: Double(day.ordinal * 86_400 + minute * 60)), day: day,
                    minuteOfDay: minute, utcOffsetSeconds: 0, timeZoneIdentifier: "UTC"))
            }
        }
        return results
    }

    static func time(_ body: () -> Void) -> Double {
        let elapsed = ContinuousClock().measure(body)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    static func round3(_ value: Double) -> Double { (value * 1_000).rounded() / 1_000 }
}
