import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// The example domain of docs/architecture.md ("Adding a domain"), followed step by step: a
/// migration, a route in its own contract, a job and a user-data entry, in this one folder, and
/// one registration line where a server lists its domains. The tests register it next to the
/// server's domains and drive each part.
package struct ExampleDomain: ServerDomain {
    /// Creates the domain.
    package init() {}

    /// `example`.
    package var name: String { "example" }

    /// One table of notes.
    package var migrations: [Migration] {
        [
            Migration("example_0001_notes") { sql in
                try await sql.create(table: "example_notes")
                    .column("id", type: .text, .primaryKey(autoIncrement: false))
                    .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
                    .column("text", type: .text, .notNull)
                    .column("created_at", type: .bigint, .notNull)
                    .run()
                try await sql.create(index: "example_notes_by_user").on("example_notes").column("user_id").column("created_at").run()
            },
        ]
    }

    /// The notes are the user's data.
    package var userData: [UserDataEntry] {
        [UserDataEntry(domain: name, tables: [UserDataTable("example_notes")])]
    }

    /// The example contract, served at `/openapi/example.yaml`.
    package var contract: APIContract? {
        let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml")
        return url.flatMap { try? Data(contentsOf: $0) }.map { APIContract(name: name, document: [UInt8]($0)) }
    }

    /// A daily job that deletes notes older than 30 days.
    package func registerJobs(on platform: Platform, environment: DomainEnvironment) throws {
        try platform.jobs.register(
            Job("example.prune-notes", schedule: "0 4 * * *") { context in
                let cutoff = context.clock.now().millisecondsSince1970 - 30 * 86_400_000
                let deleted = try await context.forEachPage(limit: 500) { limit in
                    try await ExampleNotes.pruneOlderThan(cutoff, limit: limit, on: context.database)
                }
                return "deleted \(deleted) old notes"
            }
        )
    }

    /// Registers the contract's handler.
    package func install(on server: DomainServer) async throws {
        try ExampleHandler(environment: server.environment, authenticator: server.authenticator)
            .registerHandlers(on: server.transport, configuration: server.openAPIConfiguration)
    }
}
