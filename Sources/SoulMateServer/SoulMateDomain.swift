import Foundation
import KindredServerCore
import KindredStore
import SoulMateAPI

/// SoulMate as a domain of the server: its migrations, user data, contract, the envelope
/// cleanup job and its routes. The composition root lists it once.
package struct SoulMateDomain: ServerDomain {
    /// SoulMate's settings.
    package var settings: SoulMateSettings

    /// Creates the domain.
    package init(settings: SoulMateSettings = SoulMateSettings()) {
        self.settings = settings
    }

    /// `soulmate`.
    package var name: String { "soulmate" }
    /// Its headline numbers on the console overview.
    package func adminOverview(environment: DomainEnvironment) -> AdminOverviewSection? { SoulMateAdminOverview.section(environment) }
    /// SoulMate's migrations.
    package var migrations: [Migration] { SoulMateSchema.migrations }
    /// SoulMate's tables with a user column.
    package var userData: [UserDataEntry] { [SoulMateSchema.userDataEntry] }
    /// SoulMate's OpenAPI document.
    package var contract: APIContract? { APIContract(name: name, document: SoulMateContract.document) }

    /// `soulmate.cleanup-envelopes`: hourly, deletes envelopes nobody acknowledged within the
    /// retention (the seed's scheduled `cleanupExpiredTransientMessages`).
    package func registerJobs(on platform: Platform, environment: DomainEnvironment) throws {
        let retentionMS = Int64(settings.envelopeRetention.components.seconds) * 1000
        try platform.jobs.register(
            Job("soulmate.cleanup-envelopes", schedule: "23 * * * *") { context in
                let cutoff = context.clock.now().millisecondsSince1970 - retentionMS
                let deleted = try await context.forEachPage(limit: 500) { limit in
                    try await SoulMateController.deleteExpired(before: cutoff, limit: limit, database: context.database)
                }
                return "deleted \(deleted) envelopes older than \(retentionMS / 86_400_000) days"
            }
        )
    }

    /// Registers SoulMate's operations.
    package func install(on server: DomainServer) async throws {
        let controller = SoulMateController(
            database: server.environment.database, clock: server.environment.clock, settings: settings,
            events: SoulMateEvents(outbox: server.outbox, relay: server.platform.realtime),
            accounts: server.authenticator.accounts, rateLimiter: server.rateLimiter()
        )
        try SoulMateHandler(soulmate: controller, authenticator: server.authenticator)
            .registerHandlers(on: server.transport, configuration: server.openAPIConfiguration)
    }
}

/// SoulMate's OpenAPI document, as bundled with `SoulMateAPI`.
enum SoulMateContract {
    /// The document's bytes (empty if the bundle lost it: the server then refuses to start).
    static let document: [UInt8] = (try? SoulMateOpenAPIDocument.load()) ?? []
}
