import AdminConsole
import BillingServer
import CloserServer
import KindredServerCore
import Configuration
import Foundation

extension ServerSettings {
    /// The `closer.*` keys: `closer.legacyClients`, `closer.defaultTimeZone`,
    /// `closer.assignmentTime`, `closer.reminderTime` (HH:MM, local to each couple),
    /// `closer.gameSessionsPerHour` (1–1000), `closer.gamePushIntervalMinutes` (0–1440),
    /// `closer.challengeReminderHour` (0–23), `closer.capsulesPerCouple` (1–100000).
    static func resolveCloser(_ config: ConfigReader) throws -> CloserSettings {
        var settings = CloserSettings()
        settings.legacyClients = config.bool(forKey: ConfigKey(["closer", "legacyClients"]), default: false)
        let zone = config.string(forKey: ConfigKey(["closer", "defaultTimeZone"]), default: settings.defaultTimeZone)
        guard TimeZone(identifier: zone) != nil else { throw Invalid(description: "closer.defaultTimeZone: unknown time zone \"\(zone)\"") }
        settings.defaultTimeZone = zone
        settings.assignmentMinute = try minute("closer.assignmentTime", config.string(forKey: ConfigKey(["closer", "assignmentTime"]), default: "23:00"))
        settings.reminderMinute = try minute("closer.reminderTime", config.string(forKey: ConfigKey(["closer", "reminderTime"]), default: "20:00"))
        settings.gameSessionsPerHour = try bounded(
            "closer.gameSessionsPerHour", config.int(forKey: ConfigKey(["closer", "gameSessionsPerHour"]), default: settings.gameSessionsPerHour), 1...1000
        )
        let pushMinutes = try bounded(
            "closer.gamePushIntervalMinutes", config.int(forKey: ConfigKey(["closer", "gamePushIntervalMinutes"]), default: 10), 0...1440
        )
        settings.gamePushInterval = .seconds(pushMinutes * 60)
        settings.challengeReminderHour = try bounded(
            "closer.challengeReminderHour", config.int(forKey: ConfigKey(["closer", "challengeReminderHour"]), default: settings.challengeReminderHour), 0...23
        )
        settings.capsulesPerCouple = try bounded(
            "closer.capsulesPerCouple", config.int(forKey: ConfigKey(["closer", "capsulesPerCouple"]), default: settings.capsulesPerCouple), 1...100_000
        )
        return settings
    }

    /// `value` when it is within `range`.
    private static func bounded(_ key: String, _ value: Int, _ range: ClosedRange<Int>) throws -> Int {
        guard range.contains(value) else { throw Invalid(description: "\(key) must be \(range.lowerBound)–\(range.upperBound), not \(value)") }
        return value
    }

    /// Minutes after midnight of an `HH:MM` value.
    private static func minute(_ key: String, _ text: String) throws -> Int {
        let parts = text.split(separator: ":")
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let h = Int(parts[0]), let m = Int(parts[1]),
            (0...23).contains(h), (0...59).contains(m)
        else { throw Invalid(description: "\(key) must be HH:MM, not \"\(text.prefix(20))\"") }
        return h * 60 + m
    }
}
