import AdminConsole
import BillingServer
import CloserServer
import KindredServerCore
import Configuration

extension ServerSettings {
    /// The `jobs.*` and `queue.*` keys: `jobs.enabled`, `jobs.pollSeconds`, `jobs.historyLimit`,
    /// `jobs.shutdownGraceSeconds`, `queue.enabled`, `queue.pollMilliseconds`, `queue.dedupeRetentionHours`;
    /// also `integrity.verdictRetentionDays` (30–3650, the `integrity.purge-expired` job's retention).
    static func resolvePlatform(_ config: ConfigReader) throws -> Platform.Settings {
        var settings = Platform.Settings()
        func positive(_ key: String, _ fallback: Int) throws -> Int {
            let value = config.int(forKey: ConfigKey(key.split(separator: ".").map(String.init)), default: fallback)
            guard value >= 1 else { throw Invalid(description: "\(key) must be at least 1, not \(value)") }
            return value
        }
        settings.jobsEnabled = config.bool(forKey: ConfigKey(["jobs", "enabled"]), default: true)
        settings.queueEnabled = config.bool(forKey: ConfigKey(["queue", "enabled"]), default: true)
        settings.scheduler.pollInterval = .seconds(try positive("jobs.pollSeconds", 5))
        settings.scheduler.historyLimit = try positive("jobs.historyLimit", 50)
        settings.scheduler.shutdownGrace = .seconds(try positive("jobs.shutdownGraceSeconds", 10))
        settings.queuePollInterval = .milliseconds(try positive("queue.pollMilliseconds", 1000))
        settings.dedupeRetention = .seconds(try positive("queue.dedupeRetentionHours", 168) * 3600)
        // At least 30 days: never shorter than the longest `integrity.verdictMaxAgeSeconds`.
        let verdictDays = config.int(forKey: ConfigKey(["integrity", "verdictRetentionDays"]), default: 90)
        guard (30...3650).contains(verdictDays) else {
            throw Invalid(description: "integrity.verdictRetentionDays must be between 30 and 3650, not \(verdictDays)")
        }
        settings.integrityVerdictRetention = .seconds(verdictDays * 86_400)
        return settings
    }
}
