/// What the player did in one ISO week.
public struct WeeklyRecap: Hashable, Sendable, Codable {
    /// The week.
    public let week: ISOWeek
    /// Results recorded that week.
    public let played: Int
    /// Results completed that week.
    public let completed: Int
    /// `completed / played`, 0 when nothing was played.
    public let completionRate: Double
    /// Distinct days with a result.
    public let daysPlayed: Int
    /// `daysPlayed / 7`.
    public let consistency: Double
    /// The longest run of consecutive days with a completed result inside the week (0–7).
    public let longestStreak: Int
    /// The game with the most results (ties go to the smaller id), nil when nothing was played.
    public let mostPlayed: GameID?
    /// Results per day, Monday first (seven entries).
    public let playedPerDay: [Int]
}

extension Analytics {
    /// The recap of `week` from `results` (by each result's local day).
    public static func recap(of results: [GameResult], week: ISOWeek) -> WeeklyRecap {
        let days = week.days
        let span = days[0]...days[6]
        let inWeek = results.filter { span.contains($0.day) }
        let completed = inWeek.filter(\.completed)
        let perGame = Dictionary(grouping: inWeek, by: \.game).mapValues(\.count)
        let mostPlayed = perGame.min { ($1.value, $0.key.rawValue) < ($0.value, $1.key.rawValue) }?.key
        let daysPlayed = Set(inWeek.map(\.day)).count
        return WeeklyRecap(
            week: week, played: inWeek.count, completed: completed.count,
            completionRate: inWeek.isEmpty ? 0 : Double(completed.count) / Double(inWeek.count), daysPlayed: daysPlayed,
            consistency: Double(daysPlayed) / 7, longestStreak: DayRuns.longest(Set(completed.map(\.day))),
            mostPlayed: mostPlayed, playedPerDay: days.map { day in inWeek.filter { $0.day == day }.count })
    }
}
