/// StreakSync's settings (`streaksync.*` in the server's configuration; docs/server.md).
public struct StreakSettings: Sendable, Equatable {
    /// Friend-code look-ups (friend requests) one account may make per hour.
    public var codeLookupsPerUserPerHour = 20
    /// Friend-code look-ups one client address may make per hour.
    public var codeLookupsPerAddressPerHour = 60
    /// Accepted friends one account may have (at most 500: a score's readers are bounded by it).
    public var maxFriends = 500
    /// Friend requests one account may have pending at once.
    public var maxPendingRequests = 100
    /// How many days of scores the server keeps (older ones are pruned daily and refused).
    public var scoreRetentionDays = 400
    /// Result records (tombstones included) one account may hold.
    public var maxResultsPerUser = 100_000
    /// Achievement records one account may hold.
    public var maxAchievementsPerUser = 1_000

    /// The defaults.
    public init() {}
}
