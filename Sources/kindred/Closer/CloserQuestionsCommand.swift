import ArgumentParser
import Foundation
import KindredServer
import KindredStore

/// `kindred closer questions`: operator tasks on Closer's question catalog (server's database).
struct CloserQuestionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "questions",
        abstract: "Import question packs into Closer's catalog (on the server's database).",
        subcommands: [Import.self]
    )

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a catalog file (docs/closer.md, \"Catalog\") and store its packs; servers serve them after a restart."
        )
        @OptionGroup var options: ServerOptions
        @Argument(help: "A JSON catalog document (format kindred-closer-catalog, version 1).") var file: String

        func run() async throws {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw ValidationError("cannot read \(file)")
            }
            let settings = try await options.resolve()
            let logger = options.bootstrapLogging(level: settings.logLevel)
            let database = try await Database.open(settings.server.database, logger: logger)
            do {
                try await Migrator(ServerMigrations.all).migrate(database, logger: logger)
                let summary = try await CloserCatalogImport.run(data, database: database, clock: SystemClock())
                await database.close()
                print(summary.description)
            } catch let error as CloserCatalogError {
                await database.close()
                throw ValidationError(error.description)
            } catch {
                await database.close()
                throw error
            }
        }
    }
}
