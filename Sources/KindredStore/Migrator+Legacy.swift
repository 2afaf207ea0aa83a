import SQLKit

extension Migrator {
    /// The table earlier builds kept their records in: one global sequence across every
    /// domain (`name TEXT PRIMARY KEY, sequence BIGINT NOT NULL UNIQUE, applied_at BIGINT NOT NULL`).
    static let legacyTable = "kindred_migrations"

    /// How to ask a backend whether a table exists. SQLKit's dialects expose no capability for
    /// it, so this follows the backend the database was opened on.
    enum Catalog: Sendable {
        /// SQLite: `sqlite_master`.
        case sqlite
        /// PostgreSQL: `information_schema.tables`, in the session's current schema.
        case postgres

        /// The catalog of `database`'s backend.
        init(_ database: Database) {
            switch database.pool {
            case .sqlite: self = .sqlite
            case .postgres: self = .postgres
            }
        }

        /// Whether a table named `table` exists where an unqualified name would find it.
        func tableExists(_ table: String, on sql: any SQLDatabase) async throws -> Bool {
            switch self {
            case .sqlite:
                try await sql.select().column("name").from("sqlite_master")
                    .where("type", .equal, "table").where("name", .equal, table)
                    .first() != nil
            case .postgres:
                try await sql.select().column("table_name").from(SQLQualifiedTable("tables", space: "information_schema"))
                    .where(SQLIdentifier("table_schema"), .equal, SQLFunction("current_schema"))
                    .where("table_name", .equal, table)
                    .first() != nil
            }
        }
    }

    /// Creates `kindred_schema_migrations` if missing and, when an earlier build's
    /// `kindred_migrations` exists, moves its records in and drops it: one transaction, so a
    /// failure leaves the legacy table as it was. Runs inside the migration lock.
    /// - Throws: `unknownAppliedMigrations` (a legacy record this build does not know),
    ///   `migrationOrderMismatch` (legacy records whose order within a domain is not the code's),
    ///   `queryFailed`.
    func prepare(session: any SQLDatabase, begin: String, catalog: Catalog) async throws(KindredStoreError) {
        do {
            try await Database.transaction(on: session, begin: begin) { transaction in
                try await Self.createTable(transaction)
                guard try await catalog.tableExists(Self.legacyTable, on: transaction) else { return }
                try await upgradeLegacy(transaction)
            }
        } catch let error as KindredStoreError {
            throw error
        } catch {
            throw .queryFailed("preparing \(Self.table): \(Database.describe(error))")
        }
    }

    /// Moves the legacy records into `kindred_schema_migrations`, keeping `applied_at`: each
    /// goes to the domain whose list holds its name, at the next position of that domain in
    /// legacy-sequence order. Nothing is re-applied. The per-domain check runs before the
    /// commit, so a database this build refuses keeps its legacy table and an earlier build
    /// can still start on it.
    private func upgradeLegacy(_ sql: any SQLDatabase) async throws {
        let legacy = try await sql.select().columns("name", "applied_at").from(Self.legacyTable)
            .orderBy("sequence").all()
            .map { row in
                (name: try row.decode(column: "name", as: String.self),
                 appliedAt: try row.decode(column: "applied_at", as: Int64.self))
            }
        let unknown = legacy.map(\.name).filter { domainOfMigration[$0] == nil }
        guard unknown.isEmpty else { throw KindredStoreError.unknownAppliedMigrations(unknown) }
        var lastPosition: [String: Int] = [:]
        for record in legacy {
            guard let domain = domainOfMigration[record.name] else { continue }  // checked above
            let position = lastPosition[domain, default: 0] + 1
            lastPosition[domain] = position
            try await Self.record(
                domain: domain, name: record.name, position: position, appliedAt: record.appliedAt, on: sql
            )
        }
        try await sql.drop(table: Self.legacyTable).run()
        try check(try await readApplied(sql))
    }
}
