import AdminConsole
import BillingServer
import CloserServer
import KindredServerCore
import KindredStore
import Logging

/// Everything `buildApplication` needs: where to listen, the database, limits and the apps.
public struct ServerConfiguration: Sendable {
    /// The address to bind (127.0.0.1 by default: reachable from this machine only).
    public var host: String
    /// The TCP port (8080 by default; 0 picks a free one).
    public var port: Int
    /// The database and its connection settings.
    public var database: DatabaseConfiguration
    /// The largest request body accepted, in bytes (1 MiB by default).
    public var maxBodySize: Int
    /// The apps this deployment serves.
    public var apps: AppRegistry
    /// Account settings.
    public var auth: AuthConfiguration
    /// Scheduled jobs and work queue settings.
    public var platform: Platform.Settings
    /// The realtime service's heartbeat, retention and limits.
    public var realtime: RealtimeSettings = RealtimeSettings()
    /// Connection timeouts and the connection cap (`server.*`).
    public var connections = ConnectionSettings()
    /// The domains' settings (Closer, billing, the admin console).
    public var domains = DomainSettings()
    /// Closer's settings (legacy clients, default zone, assignment and reminder times).
    public var closer: CloserSettings {
        get { domains.closer }
        set { domains.closer = newValue }
    }
    /// The admin console's settings.
    public var admin: AdminSettings {
        get { domains.admin }
        set { domains.admin = newValue }
    }
    /// Billing: provider secrets, base URLs, products and the inbox's retry policy.
    public var billing: BillingSettings {
        get { domains.billing }
        set { domains.billing = newValue }
    }
    /// Device integrity: each app's App Attest and Play Integrity settings, and the policy.
    public var integrity = IntegritySettings()
    /// `operations.token`: remote clients may read `/metrics` and `/ready` with it as a bearer
    /// token (a secret: from the environment or the config file); nil: local clients only.
    public var operationsToken: String?
    /// Verifies Apple and Google identity tokens; nil: `JWKSIdentityVerifier` over the apps' key sets.
    public var identity: (any IdentityVerifying)?

    /// Creates a configuration; every argument has the development default.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        database: DatabaseConfiguration = DatabaseConfiguration(url: .embeddedDefault),
        maxBodySize: Int = 1 << 20,
        apps: AppRegistry = .developmentDefaults,
        auth: AuthConfiguration = AuthConfiguration(),
        identity: (any IdentityVerifying)? = nil,
        platform: Platform.Settings = Platform.Settings()
    ) {
        self.platform = platform
        self.auth = auth
        self.identity = identity
        self.host = host
        self.port = port
        self.database = database
        self.maxBodySize = maxBodySize
        self.apps = apps
    }
}
