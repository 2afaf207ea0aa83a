import ArgumentParser
import Foundation
import AdminConsole
import BillingServer
import CloserServer
import KindredServer
import KindredServerCore
import Logging

/// `kindred serve`: runs the server until SIGTERM or SIGINT, then shuts down gracefully.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Kindred server (SQLite in ./kindred-data by default).",
        discussion: """
            Settings come from these flags, then KINDRED_* environment variables, then the \
            --config file (JSON or YAML), then the defaults. Secrets (the database password) \
            come only from the environment or the file. See docs/server.md.
            """
    )

    @OptionGroup var options: ServerOptions

    @Option(help: "The address to listen on.")
    var host: String?

    @Option(help: "The TCP port to listen on.")
    var port: Int?

    func run() async throws {
        let settings = try await options.resolve(host: host, port: port)
        let logger = options.bootstrapLogging(level: settings.logLevel)
        logger.info(
            "starting",
            metadata: ["database": "\(settings.server.database.url)", "address": "\(settings.server.host):\(settings.server.port)"]
        )
        let app = try await buildApplication(settings.server, logger: logger)
        try await app.runService()
        logger.info("stopped")
    }
}

/// The options `serve` and `migrate` share.
struct ServerOptions: ParsableArguments {
    @Option(
        name: .customLong("database-url"),
        help: "sqlite:PATH, sqlite::memory: or postgres://user@host:port/database (no password here)."
    )
    var databaseURL: String?

    @Option(name: .customLong("config"), help: "A JSON or YAML settings file.")
    var configFile: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String?

    /// Resolves flags, environment and file into settings; a bad value is a one-line error.
    func resolve(host: String? = nil, port: Int? = nil) async throws -> ServerSettings {
        do {
            return try await ServerSettings.resolve(
                flags: .init(host: host, port: port, databaseURL: databaseURL, configFile: configFile, logLevel: logLevel),
                environment: ProcessInfo.processInfo.environment
            )
        } catch let error as ServerSettings.Invalid {
            throw ValidationError(error.description)
        }
    }

    /// Sends logs to standard error at `level` and returns the root logger.
    func bootstrapLogging(level: Logger.Level) -> Logger {
        LoggingSystem.bootstrap { label in
            var handler = DeferredMetadataLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var logger = Logger(label: "kindred")
        logger.logLevel = level
        return logger
    }
}
