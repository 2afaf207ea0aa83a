import AdminConsole
import BillingServer
import CloserServer
import KindredServerCore
import Configuration
import Foundation

extension ServerSettings {
    /// The `closer.*` keys: `closer.legacyClients`, `closer.defaultTimeZone`,
    /// `closer.assignmentTime`, `closer.reminderTime` (HH:MM, local to each couple).
    static func resolveCloser(_ config: ConfigReader) throws -> CloserSettings {
        var settings = CloserSettings()
        settings.legacyClients = config.bool(forKey: ConfigKey(["closer", "legacyClients"]), default: false)
        let zone = config.string(forKey: ConfigKey(["closer", "defaultTimeZone"]), default: settings.defaultTimeZone)
        guard TimeZone(identifier: zone) != nil else { throw Invalid(description: "closer.defaultTimeZone: unknown time zone \"\(zone)\"") }
        settings.defaultTimeZone = zone
        settings.assignmentMinute = try minute("closer.assignmentTime", config.string(forKey: ConfigKey(["closer", "assignmentTime"]), default: "23:00"))
        settings.reminderMinute = try minute("closer.reminderTime", config.string(forKey: ConfigKey(["closer", "reminderTime"]), default: "20:00"))
        return settings
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
