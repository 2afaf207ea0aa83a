import AdminConsole
import BillingServer
import CloserServer
import KindredServerCore
import Configuration
import Foundation
import KindredCrypto
import KindredStore
import Logging
import SystemPackage

/// Resolves the server's configuration from, highest priority first: command-line flags,
/// `KINDRED_*` environment variables, a JSON or YAML config file, and the defaults.
///
/// Keys (file key → environment variable):
/// `host` → `KINDRED_HOST`, `port` → `KINDRED_PORT`, `logLevel` → `KINDRED_LOG_LEVEL`,
/// `maxBodyBytes` → `KINDRED_MAX_BODY_BYTES`, `database.url` → `KINDRED_DATABASE_URL`,
/// `database.password` → `KINDRED_DATABASE_PASSWORD`, `database.synchronous` (FULL or NORMAL),
/// `database.busyTimeoutMs` → `KINDRED_DATABASE_BUSY_TIMEOUT_MS`, `database.maxConnections` →
/// `KINDRED_DATABASE_MAX_CONNECTIONS` (PostgreSQL pool size, default 16; SQLite readers, default 4),
/// and `apps.<app>.enabled` → `KINDRED_APPS_<APP>_ENABLED`.
/// Secrets (the database password) come only from the environment or the file: a password in
/// the `--database-url` flag is refused, since command lines are visible to every local user.
public struct ServerSettings: Sendable {
    /// Values given on the command line; nil when absent.
    public struct Flags: Sendable {
        /// `--host`.
        public var host: String?
        /// `--port`.
        public var port: Int?
        /// `--database-url`.
        public var databaseURL: String?
        /// `--config`.
        public var configFile: String?
        /// `--log-level`.
        public var logLevel: String?

        /// Creates flags.
        public init(
            host: String? = nil, port: Int? = nil, databaseURL: String? = nil,
            configFile: String? = nil, logLevel: String? = nil
        ) {
            self.host = host
            self.port = port
            self.databaseURL = databaseURL
            self.configFile = configFile
            self.logLevel = logLevel
        }
    }

    /// A setting that cannot be used.
    public typealias Invalid = SettingsError

    /// The default `database.maxConnections` on PostgreSQL: the pool every concurrent request,
    /// queue worker and job shares (SQLite keeps `DatabaseConfiguration`'s 4 readers).
    public static let defaultPostgresConnections = 16

    /// The server configuration.
    public var server: ServerConfiguration
    /// The log level.
    public var logLevel: Logger.Level

    /// Resolves the settings.
    /// - Parameters:
    ///   - flags: the command-line values.
    ///   - environment: the process environment (only `KINDRED_*` variables are read).
    /// - Returns: the resolved settings.
    /// - Throws: `Invalid` for a bad value or an unreadable config file.
    public static func resolve(flags: Flags, environment: [String: String]) async throws -> ServerSettings {
        var providers: [any ConfigProvider] = [
            EnvironmentVariablesProvider(
                environmentVariables: environment.filter { $0.key.hasPrefix("KINDRED_") },
                secretsSpecifier: .dynamic { name, _ in name.contains("PASSWORD") || name.contains("DATABASE_URL") }
            ).prefixKeys(with: "kindred"),
        ]
        if let path = flags.configFile {
            do {
                if path.hasSuffix(".yaml") || path.hasSuffix(".yml") {
                    providers.append(try await FileProvider<YAMLSnapshot>(filePath: FilePath(path)))
                } else if path.hasSuffix(".json") {
                    providers.append(try await FileProvider<JSONSnapshot>(filePath: FilePath(path)))
                } else {
                    throw Invalid(description: "--config \(path): the file must end in .json, .yaml or .yml")
                }
            } catch let error as Invalid {
                throw error
            } catch {
                throw Invalid(description: "--config \(path): \(error)")
            }
        }
        return try resolve(flags: flags, config: ConfigReader(providers: providers))
    }

    /// The `apps.<app>.apple.*` and `apps.<app>.google.*` keys: audiences (comma-separated) and
    /// the key set (`jwksFile` or `jwksUrl`; the provider's own URL when neither is set).
    static func resolveIdentity(_ config: ConfigReader, into app: inout AppConfiguration) throws {
        app.requiresIdentityNonce = config.bool(forKey: ConfigKey(["apps", app.id.rawValue, "requireIdentityNonce"]), default: false)
        for provider in IdentityProvider.allCases {
            let prefix = ["apps", app.id.rawValue, provider.rawValue]
            let name = "apps.\(app.id.rawValue).\(provider.rawValue)"
            if let text = config.string(forKey: ConfigKey(prefix + ["audiences"])) {
                let audiences = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                switch provider {
                case .apple: app.appleAudiences = audiences
                case .google: app.googleAudiences = audiences
                }
            }
            let file = config.string(forKey: ConfigKey(prefix + ["jwksFile"]))
            let urlText = config.string(forKey: ConfigKey(prefix + ["jwksUrl"]))
            var source = provider.defaultJWKS
            switch (file, urlText) {
            case (.some, .some):
                throw Invalid(description: "\(name): set jwksFile or jwksUrl, not both")
            case (.some(let path), nil):
                source = .file(path)
            case (nil, .some(let text)):
                guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http", url.host != nil else {
                    throw Invalid(description: "\(name).jwksUrl \(text) is not an http(s) URL")
                }
                source = .url(url)
            case (nil, nil):
                break
            }
            switch provider {
            case .apple: app.appleJWKS = source
            case .google: app.googleJWKS = source
            }
        }
    }

    /// The `apps.<app>.apns.*` (teamId, keyId, keyFile, topic, productionUrl, sandboxUrl) and
    /// `apps.<app>.fcm.*` (serviceAccountFile, apiBaseUrl) keys.
    static func resolvePush(_ config: ConfigReader, into app: inout AppConfiguration) throws {
        func value(_ path: [String]) -> String? {
            config.string(forKey: ConfigKey(["apps", app.id.rawValue] + path)).flatMap { $0.isEmpty ? nil : $0 }
        }
        let apnsKeys = [value(["apns", "teamId"]), value(["apns", "keyId"]), value(["apns", "keyFile"])]
        if apnsKeys.contains(where: { $0 != nil }) {
            guard let team = apnsKeys[0], let key = apnsKeys[1], let file = apnsKeys[2] else {
                throw Invalid(description: "apps.\(app.id.rawValue).apns needs teamId, keyId and keyFile together")
            }
            app.apns = APNsSettings(
                teamID: team, keyID: key, keyFile: file, topic: value(["apns", "topic"]) ?? app.appleAudiences.first ?? "",
                productionURL: value(["apns", "productionUrl"]), sandboxURL: value(["apns", "sandboxUrl"])
            )
        }
        if let file = value(["fcm", "serviceAccountFile"]) {
            app.fcm = FCMSettings(serviceAccountFile: file, apiBaseURL: value(["fcm", "apiBaseUrl"]))
        }
    }

    /// The `realtime.*` keys.
    static func resolveRealtime(_ config: ConfigReader) throws -> RealtimeSettings {
        var realtime = RealtimeSettings()
        func positive(_ key: String, _ fallback: Int) throws -> Int {
            let value = config.int(forKey: ConfigKey(key.split(separator: ".").map(String.init)), default: fallback)
            guard value >= 1 else { throw Invalid(description: "\(key) must be at least 1, not \(value)") }
            return value
        }
        realtime.heartbeatInterval = .milliseconds(try positive("realtime.heartbeatMs", 30_000))
        realtime.retentionAge = .seconds(try positive("realtime.retentionSeconds", 86_400))
        realtime.retentionCount = try positive("realtime.retentionCount", realtime.retentionCount)
        realtime.maxSubscriptionsPerConnection = try positive(
            "realtime.maxSubscriptionsPerConnection", realtime.maxSubscriptionsPerConnection
        )
        realtime.outboundQueueLimit = try positive("realtime.outboundQueueLimit", realtime.outboundQueueLimit)
        realtime.socketsPerUser = try positive("realtime.socketsPerUser", realtime.socketsPerUser)
        return realtime
    }

    /// The `auth.*` and `trustedProxies` keys.
    static func resolveAuth(_ config: ConfigReader) throws -> AuthConfiguration {
        var auth = AuthConfiguration()
        func positive(_ key: String, _ fallback: Int) throws -> Int {
            let value = config.int(forKey: ConfigKey(key.split(separator: ".").map(String.init)), default: fallback)
            guard value >= 1 else { throw Invalid(description: "\(key) must be at least 1, not \(value)") }
            return value
        }
        auth.accessTokenLifetime = .seconds(try positive("auth.accessTokenSeconds", 900))
        auth.refreshTokenLifetime = .seconds(try positive("auth.refreshTokenDays", 30) * 86_400)
        let defaults = auth.passwordParameters
        let parameters = Argon2id.Parameters(
            memoryKiB: UInt32(clamping: try positive("auth.password.memoryKib", Int(defaults.memoryKiB))),
            iterations: UInt32(clamping: try positive("auth.password.iterations", Int(defaults.iterations))),
            parallelism: UInt32(clamping: try positive("auth.password.parallelism", Int(defaults.parallelism))),
            outputLength: defaults.outputLength
        )
        guard parameters.memoryKiB >= 8 * parameters.parallelism, parameters.memoryKiB <= 1 << 22 else {
            throw Invalid(description: "auth.password.memoryKib must be between 8 × parallelism and 4194304")
        }
        auth.passwordParameters = parameters
        auth.maxConcurrentHashes = try positive("auth.maxConcurrentHashes", auth.maxConcurrentHashes)
        auth.anonymousSignUpsPerHour = try positive("auth.anonymousSignUpsPerHour", auth.anonymousSignUpsPerHour)
        auth.signUpsPerAddressPerHour = try positive("auth.signUpsPerAddressPerHour", auth.signUpsPerAddressPerHour)
        auth.maxQueuedHashes = try positive("auth.maxQueuedHashes", auth.maxQueuedHashes)
        auth.loginFailuresPerAccount = try positive("auth.loginFailuresPerAccount", auth.loginFailuresPerAccount)
        auth.loginFailuresPerAddress = try positive("auth.loginFailuresPerAddress", auth.loginFailuresPerAddress)
        auth.loopbackExempt = config.bool(forKey: ConfigKey(["auth", "loopbackExempt"]), default: false)
        let proxies = config.string(forKey: "trustedProxies", default: "")
        auth.trustedProxies = try TrustedProxies(proxies.split(separator: ",").map(String.init))
        let prefix = config.int(forKey: ConfigKey(["auth", "ipv6PrefixLength"]), default: 64)
        guard (1...128).contains(prefix) else { throw Invalid(description: "auth.ipv6PrefixLength must be 1 to 128, not \(prefix)") }
        auth.trustedProxies.ipv6ClientPrefixLength = prefix
        return auth
    }

    static func resolve(flags: Flags, config: ConfigReader) throws -> ServerSettings {
        var server = ServerConfiguration()
        server.host = flags.host ?? config.string(forKey: "host", default: server.host)
        server.port = flags.port ?? config.int(forKey: "port", default: server.port)
        guard (0...65535).contains(server.port) else { throw Invalid(description: "port \(server.port) is out of range") }
        server.maxBodySize = config.int(forKey: "maxBodyBytes", default: server.maxBodySize)
        guard server.maxBodySize >= 1 else { throw Invalid(description: "maxBodyBytes must be positive") }

        if let flagURL = flags.databaseURL, case .postgres(let pg) = try? DatabaseURL(parsing: flagURL), pg.password != nil {
            throw Invalid(
                description: "--database-url must not contain a password; set KINDRED_DATABASE_PASSWORD or database.password in the config file"
            )
        }
        let urlText = flags.databaseURL ?? config.string(forKey: "database.url", isSecret: true)
        var url = DatabaseURL.embeddedDefault
        if let urlText {
            do {
                url = try DatabaseURL(parsing: urlText)
            } catch {
                throw Invalid(description: "database URL: \(error.description)")
            }
        }
        if case .postgres(var pg) = url, let password = config.string(forKey: "database.password", isSecret: true) {
            pg.password = password
            url = .postgres(pg)
        }
        var database = DatabaseConfiguration(url: url)
        let synchronous = config.string(forKey: "database.synchronous", default: "FULL").uppercased()
        guard let mode = DatabaseConfiguration.SQLiteSynchronous(rawValue: synchronous) else {
            throw Invalid(description: "database.synchronous must be FULL or NORMAL, not \(synchronous)")
        }
        database.sqliteSynchronous = mode
        database.sqliteBusyTimeout = .milliseconds(config.int(forKey: "database.busyTimeoutMs", default: 5000))
        let defaultConnections = if case .postgres = url { Self.defaultPostgresConnections } else { database.maxConnections }
        database.maxConnections = config.int(forKey: "database.maxConnections", default: defaultConnections)
        server.database = database

        var apps: [AppConfiguration] = []
        for id in AppID.allCases {
            var app = AppConfiguration.developmentDefault(for: id)
            app.enabled = config.bool(forKey: ConfigKey(["apps", id.rawValue, "enabled"]), default: true)
            try resolveIdentity(config, into: &app)
            try resolvePush(config, into: &app)
            apps.append(app)
        }
        server.apps = AppRegistry(apps)
        server.auth = try resolveAuth(config)
        server.auth.signingKeys = try resolveSigningKeys(config)
        server.platform = try resolvePlatform(config)
        server.realtime = try resolveRealtime(config)
        server.connections = try resolveConnections(config)
        server.closer = try resolveCloser(config)
        server.domains.soulmate = try resolveSoulMate(config)
        server.domains.streaksync = try resolveStreak(config)
        server.domains.exeraser = try resolveEraser(config)
        server.admin = try resolveAdmin(config)
        server.billing = try resolveBilling(config)
        server.integrity = try resolveIntegrity(config)
        server.operationsToken = try resolveOperationsToken(config)

        let levelText = flags.logLevel ?? config.string(forKey: "logLevel", default: "info")
        guard let level = Logger.Level(rawValue: levelText.lowercased()) else {
            throw Invalid(
                description: "log level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")), not \(levelText)"
            )
        }
        return ServerSettings(server: server, logLevel: level)
    }
}
