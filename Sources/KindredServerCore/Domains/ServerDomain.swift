import KindredStore
import Logging

/// One domain of the server (Closer, billing, the admin console, …): everything it brings to
/// the platform, declared in one place so that adding a domain is one line in the composition
/// root's list (`KindredServer`'s `ServerDomains`). See docs/architecture.md, "Adding a domain".
///
/// The core calls the hooks in this order: `migrations` (applied core first, then each domain
/// in registration order, each domain's order checked on its own), `registerJobs` (the server
/// and `kindred jobs` alike), `channelAuthorizers` (before the realtime hub exists), `userData`
/// (account deletion and export), then `install` (routes, queue handlers, services), after which
/// the core registers its own contract's routes (it serves billing's subscription routes through
/// the `SubscriptionService` a domain provided).
/// Every hook but `name` has a default that contributes nothing.
package protocol ServerDomain: Sendable {
    /// The domain's permanent, lower-case name: its migrations' domain in the bookkeeping table,
    /// its log metadata and the name of its OpenAPI document (`/openapi/<name>.yaml`).
    var name: String { get }
    /// The domain's migrations, in order. Append only: a shipped migration is never edited.
    var migrations: [Migration] { get }
    /// The tables that hold a user's data (account deletion and export cover them; a schema test
    /// fails when a table with a user column is not covered).
    var userData: [UserDataEntry] { get }
    /// The domain's HTTP contract, served at `/openapi/<name>.yaml` and merged into `/openapi.yaml`.
    var contract: APIContract? { get }
    /// Registers the domain's scheduled jobs.
    /// - Throws: `JobError` for a duplicate name or an invalid schedule.
    func registerJobs(on platform: Platform, environment: DomainEnvironment) throws
    /// The realtime channel kinds the domain owns (`couple` → who may read `couple:<id>`).
    func channelAuthorizers(environment: DomainEnvironment) -> [String: any ChannelAuthorizing]
    /// Registers the domain's routes, queue handlers and services on the server being built.
    /// - Throws: when the domain cannot start (a catalog that does not load, …).
    func install(on server: DomainServer) async throws
    /// The domain's headline numbers on the operators' console overview; nil: none.
    func adminOverview(environment: DomainEnvironment) -> AdminOverviewSection?
}

extension ServerDomain {
    /// No migrations.
    package var migrations: [Migration] { [] }
    /// No user data.
    package var userData: [UserDataEntry] { [] }
    /// No contract of its own.
    package var contract: APIContract? { nil }
    /// No jobs.
    package func registerJobs(on platform: Platform, environment: DomainEnvironment) throws {}
    /// No channel kinds.
    package func channelAuthorizers(environment: DomainEnvironment) -> [String: any ChannelAuthorizing] { [:] }
    /// Nothing to install.
    package func install(on server: DomainServer) async throws {}
    /// No overview numbers.
    package func adminOverview(environment: DomainEnvironment) -> AdminOverviewSection? { nil }
    /// The domain's migrations as the migrator's domain.
    package var migrationDomain: MigrationDomain { MigrationDomain(name, migrations) }
}

/// What every domain hook is given: the shared database, clock and logger, and the core's
/// entitlement checks (which billing implements; apps ask them instead of importing billing).
package struct DomainEnvironment: Sendable {
    /// The open, migrated database.
    package var database: Database
    /// The time source of every timestamp and expiry.
    package var clock: any WallClock
    /// The server's logger.
    package var logger: Logger
    /// Who has premium access to which app (fails closed).
    package var entitlements: any Entitlements

    /// Creates an environment.
    package init(database: Database, clock: any WallClock, logger: Logger, entitlements: any Entitlements = NoEntitlements()) {
        self.database = database
        self.clock = clock
        self.logger = logger
        self.entitlements = entitlements
    }

    /// The logger with `domain` metadata set to `name`.
    package func logger(for name: String) -> Logger {
        var logger = self.logger
        logger[metadataKey: "domain"] = "\(name)"
        return logger
    }
}
