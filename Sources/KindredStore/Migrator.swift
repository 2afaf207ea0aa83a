import Foundation
import Logging
import SQLKit

/// A migration recorded in `kindred_migrations`.
public struct AppliedMigration: Sendable, Equatable {
    /// The migration's name.
    public let name: String
    /// Its position in the list, from 1.
    public let sequence: Int
    /// When it was applied.
    public let appliedAt: Date
}

/// Applies an append-only list of named migrations, recording each in `kindred_migrations`.
///
/// Re-running is a no-op. The migrator refuses a database whose applied migrations are not,
/// in order, a prefix of its list: that database was migrated by other code, and guessing
/// would corrupt it. Each migration and its record commit in one transaction.
public struct Migrator: Sendable {
    /// The table the migrator keeps its records in.
    public static let table = "kindred_migrations"

    /// The migrations, in the order they apply.
    public let migrations: [Migration]

    /// Creates a migrator.
    /// - Parameter migrations: the list, in order; names must be unique.
    /// - Throws: `duplicateMigrationName`.
    public init(_ migrations: [Migration]) throws(KindredStoreError) {
        var seen = Set<String>()
        for migration in migrations where !seen.insert(migration.name).inserted {
            throw .duplicateMigrationName(migration.name)
        }
        self.migrations = migrations
    }

    /// The migrations recorded in the database, in the order they were applied.
    /// - Throws: `queryFailed`.
    public func applied(on database: Database) async throws(KindredStoreError) -> [AppliedMigration] {
        do {
            try await createTable(database.sql)
            return try await Self.readApplied(database.sql)
        } catch {
            throw .queryFailed("reading \(Self.table): \(Database.describe(error))")
        }
    }

    /// Applies every migration not yet applied, in order.
    /// - Parameters:
    ///   - database: the database to migrate.
    ///   - clock: the time recorded as `applied_at`.
    ///   - logger: one info line per migration applied.
    /// - Returns: the names applied by this call (empty when the database was up to date).
    /// - Throws: `unknownAppliedMigrations`, `migrationOrderMismatch`, `migrationFailed`, `queryFailed`.
    @discardableResult
    public func migrate(
        _ database: Database,
        clock: any WallClock = SystemClock(),
        logger: Logger = Logger(label: "kindred.migrations")
    ) async throws(KindredStoreError) -> [String] {
        do {
            return try await database.withMigrationLock { session, begin in
                try await migrate(session: session, begin: begin, clock: clock, logger: logger)
            }
        } catch let error as KindredStoreError {
            throw error
        } catch {
            throw .queryFailed("migrating: \(Database.describe(error))")
        }
    }

    /// Applies the pending migrations on one pinned session (inside the migration lock).
    private func migrate(
        session: any SQLDatabase, begin: String, clock: any WallClock, logger: Logger
    ) async throws -> [String] {
        let alreadyApplied: [AppliedMigration]
        do {
            try await createTable(session)
            alreadyApplied = try await Self.readApplied(session)
        } catch {
            throw KindredStoreError.queryFailed("reading \(Self.table): \(Database.describe(error))")
        }
        try check(alreadyApplied.map(\.name))
        var appliedNow: [String] = []
        for (index, migration) in migrations.enumerated().dropFirst(alreadyApplied.count) {
            let sequence = index + 1
            let appliedAt = clock.now().millisecondsSince1970
            let didApply: Bool
            do {
                didApply = try await Database.transaction(on: session, begin: begin) { transaction in
                    // Another process may have applied it since we looked: the row is the truth.
                    let existing = try await transaction.select().column("name").from(Self.table)
                        .where("name", .equal, migration.name).first()
                    guard existing == nil else { return false }
                    try await migration.up(transaction)
                    try await transaction.insert(into: Self.table)
                        .columns("name", "sequence", "applied_at")
                        .values(SQLBind(migration.name), SQLBind(sequence), SQLBind(appliedAt))
                        .run()
                    return true
                }
            } catch {
                throw KindredStoreError.migrationFailed(name: migration.name, reason: Database.describe(error))
            }
            if didApply {
                logger.info("applied migration", metadata: ["migration": "\(migration.name)"])
                appliedNow.append(migration.name)
            }
        }
        return appliedNow
    }

    /// Checks that `appliedNames` is, in order, a prefix of this migrator's list.
    func check(_ appliedNames: [String]) throws(KindredStoreError) {
        let known = Set(migrations.map(\.name))
        let unknown = appliedNames.filter { !known.contains($0) }
        guard unknown.isEmpty else { throw .unknownAppliedMigrations(unknown) }
        for (position, name) in appliedNames.enumerated() where migrations[position].name != name {
            throw .migrationOrderMismatch(position: position, expected: migrations[position].name, applied: name)
        }
    }

    private func createTable(_ sql: any SQLDatabase) async throws {
        try await sql.create(table: Self.table).ifNotExists()
            .column("name", type: .text, .primaryKey(autoIncrement: false))
            .column("sequence", type: .bigint, .notNull, .unique)
            .column("applied_at", type: .bigint, .notNull)
            .run()
    }

    private static func readApplied(_ sql: any SQLDatabase) async throws -> [AppliedMigration] {
        try await sql.select().columns("name", "sequence", "applied_at").from(table)
            .orderBy("sequence").all()
            .map { row in
                AppliedMigration(
                    name: try row.decode(column: "name", as: String.self),
                    sequence: try row.decode(column: "sequence", as: Int.self),
                    appliedAt: Date(
                        timeIntervalSince1970: TimeInterval(try row.decode(column: "applied_at", as: Int64.self)) / 1000
                    )
                )
            }
    }
}
