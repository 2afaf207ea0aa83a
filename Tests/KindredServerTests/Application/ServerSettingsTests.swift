@testable import AdminConsole
@testable import BillingServer
@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import Testing

/// Flags over environment over config file over defaults.
@Suite struct ServerSettingsTests {
    @Test func defaultsWithoutAnySetting() async throws {
        let settings = try await ServerSettings.resolve(flags: .init(), environment: ["HOME": "/root"])
        #expect(settings.server.host == "127.0.0.1")
        #expect(settings.server.port == 8080)
        #expect(settings.server.database.url == .sqlite(path: "./kindred-data/kindred.sqlite"))
        #expect(settings.server.database.sqliteSynchronous == .full)
        #expect(settings.server.maxBodySize == 1 << 20)
        #expect(settings.logLevel == .info)
        #expect(settings.server.apps == .developmentDefaults)
    }

    @Test func flagsOverrideEnvironmentOverrideFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kindred-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("kindred.yaml")
        try """
            host: 0.0.0.0
            port: 9000
            logLevel: debug
            maxBodyBytes: 4096
            database:
              url: postgres://kindred@db.internal:5432/kindred
              password: from-file
              maxConnections: 8
            apps:
              exeraser:
                enabled: false
            """.write(to: file, atomically: true, encoding: .utf8)
        let fromFile = try await ServerSettings.resolve(flags: .init(configFile: file.path), environment: [:])
        #expect(fromFile.server.host == "0.0.0.0")
        #expect(fromFile.server.port == 9000)
        #expect(fromFile.logLevel == .debug)
        #expect(fromFile.server.maxBodySize == 4096)
        #expect(fromFile.server.database.maxConnections == 8)
        guard case .postgres(let pg) = fromFile.server.database.url else {
            Issue.record("expected a postgres URL")
            return
        }
        #expect(pg.password == "from-file")
        #expect(fromFile.server.apps.apps[.exeraser]?.enabled == false)
        #expect(fromFile.server.apps.apps[.closer]?.enabled == true)

        let environment = ["KINDRED_PORT": "9100", "KINDRED_DATABASE_PASSWORD": "from-env", "KINDRED_DATABASE_SYNCHRONOUS": "normal"]
        let fromEnvironment = try await ServerSettings.resolve(flags: .init(configFile: file.path), environment: environment)
        #expect(fromEnvironment.server.port == 9100)
        #expect(fromEnvironment.server.host == "0.0.0.0")
        #expect(fromEnvironment.server.database.sqliteSynchronous == .normal)
        if case .postgres(let pg) = fromEnvironment.server.database.url { #expect(pg.password == "from-env") }

        let fromFlags = try await ServerSettings.resolve(
            flags: .init(host: "127.0.0.1", port: 9200, databaseURL: "sqlite::memory:", configFile: file.path, logLevel: "error"),
            environment: environment
        )
        #expect(fromFlags.server.port == 9200)
        #expect(fromFlags.server.host == "127.0.0.1")
        #expect(fromFlags.server.database.url == .sqliteMemory)
        #expect(fromFlags.logLevel == .error)
    }

    @Test func camelCaseKeysHaveSnakeCaseVariables() async throws {
        let settings = try await ServerSettings.resolve(
            flags: .init(),
            environment: [
                "KINDRED_MAX_BODY_BYTES": "2048", "KINDRED_LOG_LEVEL": "warning",
                "KINDRED_DATABASE_BUSY_TIMEOUT_MS": "250", "KINDRED_DATABASE_MAX_CONNECTIONS": "2",
                "KINDRED_APPS_PULSE_ENABLED": "false", "PORT": "1",
            ]
        )
        #expect(settings.server.maxBodySize == 2048)
        #expect(settings.logLevel == .warning)
        #expect(settings.server.database.sqliteBusyTimeout == .milliseconds(250))
        #expect(settings.server.database.maxConnections == 2)
        #expect(settings.server.apps.apps[.pulse]?.enabled == false)
        #expect(settings.server.port == 8080)  // only KINDRED_* variables are read
    }

    @Test func postgresPoolDefaultsTo16AndSQLiteReadersTo4() async throws {
        let postgres = try await ServerSettings.resolve(
            flags: .init(databaseURL: "postgres://kindred@127.0.0.1:5432/kindred"), environment: [:]
        )
        #expect(postgres.server.database.maxConnections == 16)
        let configured = try await ServerSettings.resolve(
            flags: .init(databaseURL: "postgres://kindred@127.0.0.1:5432/kindred"),
            environment: ["KINDRED_DATABASE_MAX_CONNECTIONS": "32"]
        )
        #expect(configured.server.database.maxConnections == 32)
        let sqlite = try await ServerSettings.resolve(flags: .init(databaseURL: "sqlite:/tmp/k.sqlite"), environment: [:])
        #expect(sqlite.server.database.maxConnections == 4)
    }

    @Test func jsonConfigFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kindred-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try #"{"port": 8181, "database": {"url": "sqlite:/tmp/k.sqlite", "synchronous": "NORMAL"}}"#
            .write(to: file, atomically: true, encoding: .utf8)
        let settings = try await ServerSettings.resolve(flags: .init(configFile: file.path), environment: [:])
        #expect(settings.server.port == 8181)
        #expect(settings.server.database.url == .sqlite(path: "/tmp/k.sqlite"))
        #expect(settings.server.database.sqliteSynchronous == .normal)
    }

    @Test func passwordInTheFlagIsRefused() async throws {
        await #expect(throws: ServerSettings.Invalid.self) {
            try await ServerSettings.resolve(flags: .init(databaseURL: "postgres://u:secret@h:5432/db"), environment: [:])
        }
    }

    @Test func invalidValuesAreOneLineErrors() async throws {
        await #expect(throws: ServerSettings.Invalid.self) {
            try await ServerSettings.resolve(flags: .init(databaseURL: "mysql://x"), environment: [:])
        }
        await #expect(throws: ServerSettings.Invalid.self) {
            try await ServerSettings.resolve(flags: .init(logLevel: "loud"), environment: [:])
        }
        await #expect(throws: ServerSettings.Invalid.self) {
            try await ServerSettings.resolve(flags: .init(), environment: ["KINDRED_DATABASE_SYNCHRONOUS": "OFF"])
        }
        await #expect(throws: ServerSettings.Invalid.self) {
            try await ServerSettings.resolve(flags: .init(configFile: "/nonexistent/kindred.yaml"), environment: [:])
        }
        await #expect(throws: ServerSettings.Invalid.self) {
            try await ServerSettings.resolve(flags: .init(configFile: "/tmp/kindred.toml"), environment: [:])
        }
    }

    @Test func accountSettingsFromTheEnvironment() async throws {
        let defaults = try await ServerSettings.resolve(flags: .init(), environment: [:]).server.auth
        #expect(defaults.accessTokenLifetime == .seconds(900))
        #expect(defaults.refreshTokenLifetime == .seconds(30 * 86_400))
        #expect(defaults.passwordParameters == .password)
        #expect(defaults.loopbackExempt == false)
        #expect(defaults.trustedProxies == TrustedProxies())

        let auth = try await ServerSettings.resolve(
            flags: .init(),
            environment: [
                "KINDRED_AUTH_ACCESS_TOKEN_SECONDS": "60", "KINDRED_AUTH_REFRESH_TOKEN_DAYS": "7",
                "KINDRED_AUTH_PASSWORD_MEMORY_KIB": "1024", "KINDRED_AUTH_PASSWORD_ITERATIONS": "1",
                "KINDRED_AUTH_MAX_CONCURRENT_HASHES": "4", "KINDRED_AUTH_ANONYMOUS_SIGN_UPS_PER_HOUR": "5",
                "KINDRED_AUTH_LOGIN_FAILURES_PER_ACCOUNT": "3", "KINDRED_AUTH_LOGIN_FAILURES_PER_ADDRESS": "9",
                "KINDRED_AUTH_LOOPBACK_EXEMPT": "true", "KINDRED_TRUSTED_PROXIES": "10.0.0.0/8,::1",
            ]
        ).server.auth
        #expect(auth.accessTokenLifetime == .seconds(60))
        #expect(auth.refreshTokenLifetime == .seconds(7 * 86_400))
        #expect(auth.passwordParameters == .init(memoryKiB: 1024, iterations: 1, parallelism: 1))
        #expect(auth.maxConcurrentHashes == 4)
        #expect(auth.anonymousSignUpsPerHour == 5)
        #expect(auth.loginFailuresPerAccount == 3)
        #expect(auth.loginFailuresPerAddress == 9)
        #expect(auth.loopbackExempt)
        #expect(auth.trustedProxies == (try TrustedProxies(["10.0.0.0/8", "::1"])))

        await #expect(throws: ServerSettings.Invalid(description: "auth.accessTokenSeconds must be at least 1, not 0")) {
            try await ServerSettings.resolve(flags: .init(), environment: ["KINDRED_AUTH_ACCESS_TOKEN_SECONDS": "0"])
        }
        await #expect(throws: ServerSettings.Invalid.self) {
            try await ServerSettings.resolve(flags: .init(), environment: ["KINDRED_TRUSTED_PROXIES": "proxy.local"])
        }
    }

    @Test func identityKeySetsAndAudiencesPerApp() async throws {
        let defaults = try await ServerSettings.resolve(flags: .init(), environment: [:]).server.apps.apps[.closer]
        #expect(defaults?.appleJWKS == .url(URL(string: "https://appleid.apple.com/auth/keys")!))
        #expect(defaults?.googleJWKS == .url(URL(string: "https://www.googleapis.com/oauth2/v3/certs")!))

        let apps = try await ServerSettings.resolve(
            flags: .init(),
            environment: [
                "KINDRED_APPS_CLOSER_APPLE_AUDIENCES": "com.example.closer, com.example.closer.web",
                "KINDRED_APPS_CLOSER_APPLE_JWKS_FILE": "/etc/kindred/apple.json",
                "KINDRED_APPS_PULSE_GOOGLE_JWKS_URL": "https://keys.example.com/google",
                "KINDRED_APPS_PULSE_GOOGLE_AUDIENCES": "123.apps.googleusercontent.com",
            ]
        ).server.apps.apps
        #expect(apps[.closer]?.appleAudiences == ["com.example.closer", "com.example.closer.web"])
        #expect(apps[.closer]?.appleJWKS == .file("/etc/kindred/apple.json"))
        #expect(apps[.pulse]?.googleJWKS == .url(URL(string: "https://keys.example.com/google")!))
        #expect(apps[.pulse]?.googleAudiences == ["123.apps.googleusercontent.com"])

        await #expect(throws: ServerSettings.Invalid(description: "apps.closer.apple: set jwksFile or jwksUrl, not both")) {
            try await ServerSettings.resolve(flags: .init(), environment: [
                "KINDRED_APPS_CLOSER_APPLE_JWKS_FILE": "/a", "KINDRED_APPS_CLOSER_APPLE_JWKS_URL": "https://b.example.com",
            ])
        }
        await #expect(throws: ServerSettings.Invalid(description: "apps.soulmate.google.jwksUrl ftp://x is not an http(s) URL")) {
            try await ServerSettings.resolve(flags: .init(), environment: ["KINDRED_APPS_SOULMATE_GOOGLE_JWKS_URL": "ftp://x"])
        }
    }

    @Test func gameLimitsAreCloserSettings() async throws {
        let defaults = try await ServerSettings.resolve(flags: .init(), environment: [:]).server.closer
        #expect(defaults.gameSessionsPerHour == 30)
        #expect(defaults.gamePushInterval == .seconds(600))
        let set = try await ServerSettings.resolve(flags: .init(), environment: [
            "KINDRED_CLOSER_GAME_SESSIONS_PER_HOUR": "5", "KINDRED_CLOSER_GAME_PUSH_INTERVAL_MINUTES": "0",
        ]).server.closer
        #expect(set.gameSessionsPerHour == 5)
        #expect(set.gamePushInterval == .zero)
        await #expect(throws: ServerSettings.Invalid(description: "closer.gameSessionsPerHour must be 1–1000, not 0")) {
            try await ServerSettings.resolve(flags: .init(), environment: ["KINDRED_CLOSER_GAME_SESSIONS_PER_HOUR": "0"])
        }
        await #expect(throws: ServerSettings.Invalid(description: "closer.gamePushIntervalMinutes must be 0–1440, not 2000")) {
            try await ServerSettings.resolve(flags: .init(), environment: ["KINDRED_CLOSER_GAME_PUSH_INTERVAL_MINUTES": "2000"])
        }
    }

    @Test func theOperationsTokenIsASecretOfAtLeast32Characters() async throws {
        #expect(try await ServerSettings.resolve(flags: .init(), environment: [:]).server.operationsToken == nil)
        let token = String(repeating: "k", count: 40)
        #expect(try await ServerSettings.resolve(flags: .init(), environment: ["KINDRED_OPERATIONS_TOKEN": token]).server.operationsToken == token)
        await #expect(throws: ServerSettings.Invalid(description: "operations.token must be 32–512 visible ASCII characters (for example: openssl rand -hex 32)")) {
            try await ServerSettings.resolve(flags: .init(), environment: ["KINDRED_OPERATIONS_TOKEN": "short"])
        }
    }
}
