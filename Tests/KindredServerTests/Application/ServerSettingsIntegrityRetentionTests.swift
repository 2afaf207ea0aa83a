import Foundation
@testable import KindredServer
@testable import KindredServerCore
import Testing

/// `integrity.verdictRetentionDays`: the retention of `integrity.purge-expired`, 30–3650 days.
@Suite struct ServerSettingsIntegrityRetentionTests {
    @Test func defaultsToNinetyDaysAndReadsTheEnvironment() async throws {
        let defaults = try await ServerSettings.resolve(flags: .init(), environment: [:])
        #expect(defaults.server.platform.integrityVerdictRetention == .seconds(90 * 86_400))
        let set = try await ServerSettings.resolve(flags: .init(), environment: ["KINDRED_INTEGRITY_VERDICT_RETENTION_DAYS": "30"])
        #expect(set.server.platform.integrityVerdictRetention == .seconds(30 * 86_400))
    }

    @Test func outOfRangeStopsTheServerWithOneLine() async throws {
        for value in ["29", "3651", "0", "-5"] {
            do {
                _ = try await ServerSettings.resolve(flags: .init(), environment: ["KINDRED_INTEGRITY_VERDICT_RETENTION_DAYS": value])
                Issue.record("accepted \(value)")
            } catch let error as ServerSettings.Invalid {
                #expect(error.description == "integrity.verdictRetentionDays must be between 30 and 3650, not \(value)")
            }
        }
    }
}
