import EraserAPI
import Foundation
import KindredServerCore
import KindredStore

/// Ex-Eraser as a domain of the server: its table, contract, the analytics retention job and its
/// routes. The composition root lists it once.
package struct EraserDomain: ServerDomain {
    /// Ex-Eraser's settings.
    package var settings: EraserSettings

    /// Creates the domain.
    package init(settings: EraserSettings = EraserSettings()) {
        self.settings = settings
    }

    /// `exeraser` (the app's id).
    package var name: String { "exeraser" }
    /// Its headline numbers on the console overview.
    package func adminOverview(environment: DomainEnvironment) -> AdminOverviewSection? { EraserAdminOverview.section(environment) }
    /// Ex-Eraser's migrations.
    package var migrations: [Migration] { EraserSchema.migrations }
    /// None: the analytics table has no user column (`EraserSchema`), and nothing else is kept.
    package var userData: [UserDataEntry] { [] }
    /// Ex-Eraser's OpenAPI document.
    package var contract: APIContract? { APIContract(name: name, document: EraserContract.document) }

    /// `exeraser.prune-analytics`: daily, deletes events older than the retention.
    package func registerJobs(on platform: Platform, environment: DomainEnvironment) throws {
        let days = settings.analyticsRetentionDays
        try platform.jobs.register(
            Job("exeraser.prune-analytics", schedule: "47 3 * * *") { context in
                let cutoff = context.clock.now().addingTimeInterval(-Double(days) * 86_400)
                let deleted = try await context.forEachPage(limit: 1_000) { limit in
                    try await EraserController.deleteEvents(before: cutoff, limit: limit, database: context.database)
                }
                return "deleted \(deleted) analytics events older than \(days) days"
            }
        )
    }

    /// Registers Ex-Eraser's operations.
    package func install(on server: DomainServer) async throws {
        let environment = server.environment
        let controller = EraserController(
            database: environment.database, clock: environment.clock, settings: settings,
            entitlements: environment.entitlements, rateLimiter: server.rateLimiter()
        )
        try EraserHandler(eraser: controller, authenticator: server.authenticator)
            .registerHandlers(on: server.transport, configuration: server.openAPIConfiguration)
    }
}

/// Ex-Eraser's OpenAPI document, as bundled with `EraserAPI`.
enum EraserContract {
    /// The document's bytes (empty if the bundle lost it: the server then refuses to start).
    static let document: [UInt8] = (try? EraserOpenAPIDocument.load()) ?? []
}
