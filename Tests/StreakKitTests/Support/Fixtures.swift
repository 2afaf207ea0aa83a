import Foundation
@testable import StreakKit

/// Shared test data: the catalog, results on known days, and a seeded random generator.
enum Fixtures {
    static let catalog = GameCatalog()
    static let utc = TimeZone(identifier: "UTC")!
    static let newYork = TimeZone(identifier: "America/New_York")!
    static let london = TimeZone(identifier: "Europe/London")!

    /// 2026-03-02, a Monday.
    static let monday = LocalDay(year: 2026, month: 3, day: 2)!

    /// The instant that is `hour`:`minute` on `day` in a zone `offsetHours` east of UTC.
    static func instant(_ day: LocalDay, hour: Int, minute: Int = 0, offsetHours: Double = 0) -> Date {
        Date(timeIntervalSince1970: Double(day.ordinal * 86_400 + hour * 3_600 + minute * 60) - offsetHours * 3_600)
    }

    /// A result of `game` recorded at `hour` on `day` in a zone `offsetHours` east of UTC.
    static func result(
        _ game: GameID = .wordle, day: LocalDay, hour: Int = 12, minute: Int = 0, offsetHours: Double = 0,
        completed: Bool = true, score: Int? = nil, puzzle: Int? = nil, details: GameDetails? = nil, variant: String? = nil
    ) -> GameResult {
        let share = ParsedShare(
            game: game, puzzle: puzzle ?? (1_000 + day.ordinal % 10_000), variant: variant,
            score: score ?? (completed ? 3 : 7), maxScore: 6, completed: completed,
            details: details ?? .guessGrid(GuessGrid(hardMode: false, rows: [])))
        let offset = Int(offsetHours * 3_600)
        return GameResult(
            share: share, recordedAt: instant(day, hour: hour, minute: minute, offsetHours: offsetHours), day: day,
            minuteOfDay: hour * 60 + minute, utcOffsetSeconds: offset, timeZoneIdentifier: "test")
    }
}

/// SplitMix64: a small deterministic generator, so fuzz runs are reproducible from their seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
