import ArgumentParser
import Foundation
import AdminConsole
import BillingServer
import CloserServer
import KindredServer
import KindredServerCore
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
            do {
                let summary = try await options.withMigratedDatabase { database, _, _ in
                    try await CloserCatalogImport.run(data, database: database, clock: SystemClock())
                }
                print(summary.description)
            } catch let error as CloserCatalogError {
                throw ValidationError(error.description)
            }
        }
    }
}
