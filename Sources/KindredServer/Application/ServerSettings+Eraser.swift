import Configuration
import EraserServer
import Foundation
import KindredServerCore

extension ServerSettings {
    /// The `exeraser.*` keys: `exeraser.freeReferencePhotos`, `exeraser.freeVaultItems`,
    /// `exeraser.freeDateRanges`, `exeraser.freeContacts`, `exeraser.analyticsBatchesPerUserPerHour`,
    /// `exeraser.analyticsRetentionDays`.
    static func resolveEraser(_ config: ConfigReader) throws -> EraserSettings {
        var settings = EraserSettings()
        func within(_ name: String, _ fallback: Int, _ range: ClosedRange<Int>) throws -> Int {
            let value = config.int(forKey: ConfigKey(["exeraser", name]), default: fallback)
            guard range.contains(value) else {
                throw Invalid(description: "exeraser.\(name) must be \(range.lowerBound) to \(range.upperBound), not \(value)")
            }
            return value
        }
        settings.freeReferencePhotos = try within("freeReferencePhotos", settings.freeReferencePhotos, 1...5)
        settings.freeVaultItems = try within("freeVaultItems", settings.freeVaultItems, 0...1_000_000)
        settings.freeDateRanges = try within("freeDateRanges", settings.freeDateRanges, 0...100)
        settings.freeContacts = try within("freeContacts", settings.freeContacts, 0...100)
        settings.analyticsBatchesPerUserPerHour = try within(
            "analyticsBatchesPerUserPerHour", settings.analyticsBatchesPerUserPerHour, 1...10_000
        )
        settings.analyticsRetentionDays = try within("analyticsRetentionDays", settings.analyticsRetentionDays, 1...3_650)
        return settings
    }
}
