import Configuration
import Foundation
import KindredServerCore
import SoulMateServer

extension ServerSettings {
    /// The `soulmate.*` keys: `soulmate.codeLookupsPerUserPerHour`,
    /// `soulmate.codeLookupsPerAddressPerHour`, `soulmate.envelopeRetentionDays`,
    /// `soulmate.unpairGraceDays`.
    static func resolveSoulMate(_ config: ConfigReader) throws -> SoulMateSettings {
        var settings = SoulMateSettings()
        func positive(_ name: String, _ fallback: Int, max: Int) throws -> Int {
            let value = config.int(forKey: ConfigKey(["soulmate", name]), default: fallback)
            guard (1...max).contains(value) else { throw Invalid(description: "soulmate.\(name) must be 1 to \(max), not \(value)") }
            return value
        }
        settings.codeLookupsPerUserPerHour = try positive("codeLookupsPerUserPerHour", settings.codeLookupsPerUserPerHour, max: 10_000)
        settings.codeLookupsPerAddressPerHour = try positive(
            "codeLookupsPerAddressPerHour", settings.codeLookupsPerAddressPerHour, max: 100_000
        )
        settings.envelopeRetention = .seconds(86_400 * (try positive("envelopeRetentionDays", 7, max: 30)))
        settings.unpairGrace = .seconds(86_400 * (try positive("unpairGraceDays", 7, max: 90)))
        return settings
    }
}
