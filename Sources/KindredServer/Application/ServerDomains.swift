import AdminConsole
import BillingServer
import CloserServer
import EraserServer
import KindredServerCore
import KindredStore
import SoulMateServer
import StreakServer

/// The settings of the server's domains, and the test seams that replace a domain's collaborator.
public struct DomainSettings: Sendable {
    /// Closer's settings.
    public var closer = CloserSettings()
    /// SoulMate's settings.
    public var soulmate = SoulMateSettings()
    /// StreakSync's settings.
    public var streaksync = StreakSettings()
    /// Ex-Eraser's settings.
    public var exeraser = EraserSettings()
    /// Billing: provider secrets, base URLs, products and the inbox's retry policy.
    public var billing = BillingSettings()
    /// The admin console's settings.
    public var admin = AdminSettings()
    /// Whether a Closer couple is premium; nil: billing's entitlements (as the server wires it).
    public var closerEntitlements: (any CloserEntitlements)?
    /// What the console's subscription pages read; nil: billing's administration API.
    public var adminSubscriptions: (any AdminSubscriptionDirectory)?

    /// The defaults.
    public init() {}
}

/// The server's domains, in registration order: their migrations apply in this order after the
/// core's, their jobs, channels and routes register in this order. **Adding a domain is one line
/// in `all`** (docs/architecture.md, "Adding a domain").
package enum ServerDomains {
    /// Every domain of the server.
    package static func all(_ settings: DomainSettings = DomainSettings()) -> [any ServerDomain] {
        [
            CloserDomain(settings: settings.closer, entitlements: settings.closerEntitlements),
            SoulMateDomain(settings: settings.soulmate),
            StreakDomain(settings: settings.streaksync),
            EraserDomain(settings: settings.exeraser),
            BillingDomain(settings: settings.billing),
            AdminDomain(settings: settings.admin, subscriptions: adminSubscriptions(settings)),
        ]
    }

    /// Billing's checks, as every domain asks them through the core's `Entitlements`.
    package static func entitlements(_ settings: DomainSettings, database: Database, clock: any WallClock) -> BillingEntitlements {
        BillingDomain(settings: settings.billing).entitlements(database: database, clock: clock)
    }

    /// The console's subscription pages over billing's administration API (an adapter between
    /// two domains, so it lives here, where both are known).
    static func adminSubscriptions(
        _ settings: DomainSettings
    ) -> @Sendable (DomainServices, DomainEnvironment) throws -> (any AdminSubscriptionDirectory)? {
        let fake = settings.adminSubscriptions
        return { services, environment in
            if let fake { return fake }
            guard let billing = services.get(BillingAdministration.self) else { return nil }
            return BillingConsoleDirectory(billing: billing, clock: environment.clock)
        }
    }
}

/// Every migration domain the server applies: the core's, then each domain's, in registration order.
public enum ServerMigrations {
    /// The domains' migrations, in order.
    public static var all: [MigrationDomain] {
        CoreMigrations.domains + ServerDomains.all().map(\.migrationDomain)
    }
}
