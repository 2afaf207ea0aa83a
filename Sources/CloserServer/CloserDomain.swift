import CloserAPI
import Foundation
import KindredServerCore
import KindredStore

/// Closer as a domain of the server: its migrations, user data, contract, jobs, the `couple`
/// realtime channels and its routes. The composition root lists it once.
package struct CloserDomain: ServerDomain {
    /// Closer's settings.
    package var settings: CloserSettings
    /// Whether a couple is premium; nil: from the core's entitlements (either member's Closer
    /// subscription grants it), as the server wires it.
    package var entitlements: (any CloserEntitlements)?

    /// Creates the domain.
    package init(settings: CloserSettings = CloserSettings(), entitlements: (any CloserEntitlements)? = nil) {
        self.settings = settings
        self.entitlements = entitlements
    }

    /// `closer`.
    package var name: String { "closer" }
    /// Its headline numbers on the console overview.
    package func adminOverview(environment: DomainEnvironment) -> AdminOverviewSection? { CloserAdminOverview.section(environment) }
    /// Closer's migrations (`CloserSchema`).
    package var migrations: [Migration] { CloserSchema.migrations }
    /// Closer's tables with a user column.
    package var userData: [UserDataEntry] { [CloserSchema.userDataEntry] }
    /// Closer's OpenAPI document.
    package var contract: APIContract? { APIContract(name: name, document: CloserContract.document) }

    /// The daily assignment and reminder jobs.
    package func registerJobs(on platform: Platform, environment: DomainEnvironment) throws {
        try CloserJobs.register(
            on: platform, database: environment.database, clock: environment.clock, settings: settings,
            entitlements: premium(environment)
        )
    }

    /// `couple:<id>`: readable by the couple's two members.
    package func channelAuthorizers(environment: DomainEnvironment) -> [String: any ChannelAuthorizing] {
        ["couple": CoupleChannelAuthorizer(database: environment.database)]
    }

    /// Loads the catalog (bundled and imported packs) once and registers Closer's operations
    /// (`GET …/today` with a direct handler, `CloserHandler+Direct.swift`).
    package func install(on server: DomainServer) async throws {
        let realtime = server.realtime
        let controller = CloserController(
            database: server.environment.database, clock: server.environment.clock,
            catalog: try await CloserCatalog.load(from: server.environment.database),
            dateIdeas: try await DateIdeasCatalog.load(from: server.environment.database),
            games: try await GamesCatalog.load(from: server.environment.database),
            challenges: try await ChallengesCatalog.load(from: server.environment.database), settings: settings,
            entitlements: premium(server.environment),
            events: CloserEvents(outbox: server.outbox, relay: server.platform.realtime),
            membershipChanged: { userID in try? await realtime.membershipChanged(user: userID) }
        )
        let handler = CloserHandler(closer: controller, authenticator: server.authenticator, rateLimiter: server.rateLimiter())
        try handler.registerHandlers(on: server.transport(direct: handler.directRoutes()), configuration: server.openAPIConfiguration)
    }

    /// The premium check in use.
    func premium(_ environment: DomainEnvironment) -> any CloserEntitlements {
        entitlements ?? EntitledCouples(environment.entitlements)
    }
}

/// Closer's OpenAPI document, as bundled with `CloserAPI`.
enum CloserContract {
    /// The document's bytes (empty if the bundle lost it: the server then refuses to start with
    /// `APIContractError.emptyDocument`).
    static let document: [UInt8] = (try? CloserOpenAPIDocument.load()) ?? []
}
