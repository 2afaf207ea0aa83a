import AdminConsole
import BillingServer
import CloserServer
import KindredServerCore
import Configuration

extension ServerSettings {
    /// The `admin.*` keys: `admin.secureCookies`, `admin.sessionHours`, `admin.idleMinutes`,
    /// `admin.loginFailuresPerOperator`, `admin.loginFailuresPerAddress`, `admin.timeZone`.
    static func resolveAdmin(_ config: ConfigReader) throws -> AdminSettings {
        var settings = AdminSettings()
        func positive(_ key: String, _ fallback: Int) throws -> Int {
            let value = config.int(forKey: ConfigKey(key.split(separator: ".").map(String.init)), default: fallback)
            guard value >= 1 else { throw Invalid(description: "\(key) must be at least 1, not \(value)") }
            return value
        }
        settings.secureCookies = config.bool(forKey: ConfigKey(["admin", "secureCookies"]), default: false)
        settings.sessionLifetime = .seconds(try positive("admin.sessionHours", 12) * 3600)
        settings.idleTimeout = .seconds(try positive("admin.idleMinutes", 30) * 60)
        settings.loginFailuresPerOperator = try positive("admin.loginFailuresPerOperator", settings.loginFailuresPerOperator)
        settings.loginFailuresPerAddress = try positive("admin.loginFailuresPerAddress", settings.loginFailuresPerAddress)
        let zone = config.string(forKey: ConfigKey(["admin", "timeZone"]), default: settings.defaultTimeZone)
        guard AdminSettings.isTimeZone(zone) else {
            throw Invalid(description: "admin.timeZone must be UTC or an IANA time zone name such as Europe/Paris, not \"\(zone.prefix(64))\"")
        }
        settings.defaultTimeZone = zone
        return settings
    }
}
