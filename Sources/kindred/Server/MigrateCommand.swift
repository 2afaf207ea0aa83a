import ArgumentParser
import Foundation
import AdminConsole
import BillingServer
import CloserServer
import KindredServer
import KindredServerCore
import KindredStore

/// `kindred migrate`: applies every pending migration and lists what the database has.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply pending database migrations and list the applied ones (name, time, domain)."
    )

    @OptionGroup var options: ServerOptions

    func run() async throws {
        let settings = try await options.resolve()
        let logger = options.bootstrapLogging(level: settings.logLevel)
        let database = try await Database.open(settings.server.database, logger: logger)
        do {
            let migrator = try Migrator(ServerMigrations.all)
            let appliedNow = Set(try await migrator.migrate(database, logger: logger))
            for migration in try await migrator.applied(on: database) {
                let when = migration.appliedAt.formatted(.iso8601)
                print("\(migration.name)\t\(when)\t\(migration.domain)\(appliedNow.contains(migration.name) ? "\tapplied now" : "")")
            }
            await database.close()
        } catch {
            await database.close()
            throw error
        }
    }
}
