import Foundation
import KindredServerCore
import KindredStore
import StreakAPI

/// StreakSync as a domain of the server: its migrations, user data, contract, the score pruning
/// job and its routes. The composition root lists it once.
package struct StreakDomain: ServerDomain {
    /// StreakSync's settings.
    package var settings: StreakSettings

    /// Creates the domain.
    package init(settings: StreakSettings = StreakSettings()) {
        self.settings = settings
    }

    /// `streaksync` (the app's id).
    package var name: String { "streaksync" }
    /// Its headline numbers on the console overview.
    package func adminOverview(environment: DomainEnvironment) -> AdminOverviewSection? { StreakAdminOverview.section(environment) }
    /// StreakSync's migrations.
    package var migrations: [Migration] { StreakSchema.migrations }
    /// StreakSync's tables with a user column.
    package var userData: [UserDataEntry] { [StreakSchema.userDataEntry] }
    /// StreakSync's OpenAPI document.
    package var contract: APIContract? { APIContract(name: name, document: StreakContract.document) }

    /// `streaksync.prune-scores`: daily, deletes scores of dates older than the retention (the
    /// leaderboards look back that far at most; results and achievements are kept).
    package func registerJobs(on platform: Platform, environment: DomainEnvironment) throws {
        let days = settings.scoreRetentionDays
        try platform.jobs.register(
            Job("streaksync.prune-scores", schedule: "41 3 * * *") { context in
                let cutoff = LocalDate(context.clock.now().addingTimeInterval(-Double(days) * 86_400), in: LocalDate.utc)
                let deleted = try await context.forEachPage(limit: 500) { limit in
                    try await StreakController.deleteScores(before: cutoff, limit: limit, database: context.database)
                }
                return "deleted \(deleted) scores dated before \(cutoff)"
            }
        )
    }

    /// Registers StreakSync's operations.
    package func install(on server: DomainServer) async throws {
        let controller = StreakController(
            database: server.environment.database, clock: server.environment.clock, settings: settings,
            events: StreakEvents(outbox: server.outbox, relay: server.platform.realtime),
            accounts: server.authenticator.accounts, rateLimiter: server.rateLimiter()
        )
        try StreakHandler(streaks: controller, authenticator: server.authenticator)
            .registerHandlers(on: server.transport, configuration: server.openAPIConfiguration)
    }
}

/// StreakSync's OpenAPI document, as bundled with `StreakAPI`.
enum StreakContract {
    /// The document's bytes (empty if the bundle lost it: the server then refuses to start).
    static let document: [UInt8] = (try? StreakOpenAPIDocument.load()) ?? []
}
