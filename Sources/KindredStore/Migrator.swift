import Foundation
import Logging
import SQLKit

/// A migration recorded in `kindred_schema_migrations`.
public struct AppliedMigration: Sendable, Equatable {
    /// The domain it was applied as part of.
    public let domain: String
    /// The migration's name.
    public let name: String
    /// Its position in its domain's list, from 1.
    public let sequence: Int
    /// When it was applied.
    public let appliedAt: Date
}

/// Applies append-only lists of named migrations, one list per domain, recording each
/// migration with its domain and position in `kindred_schema_migrations`.
///
/// Re-running is a no-op. Order is checked per domain: the migrator refuses a database where
/// a domain's applied migrations are not, in order, a prefix of that domain's list, or that has
/// applied migrations (or domains) the code does not know. Such a database was migrated by
/// other code, and guessing would corrupt it. Appending to one domain never disturbs the others.
/// Each migration and its record commit in one transaction. A database still keeping the
/// single global list of earlier builds (`kindred_migrations`) is upgraded on first use.
public struct Migrator: Sendable {
    /// The table the migrator keeps its records in.
    public static let table = "kindred_schema_migrations"
    /// The domain of the migrations given to `init(_:)` as one plain list.
    public static let defaultDomain = "main"

    /// The domains, in the order they apply.
    public let domains: [MigrationDomain]
    /// Every migration of every domain, in the order they apply.
    public let migrations: [Migration]
    /// Each domain's place in `domains`, by name.
    let domainOrder: [String: Int]
    /// The domain holding each migration, by migration name.
    let domainOfMigration: [String: String]

    /// Creates a migrator over several domains.
    /// - Parameter domains: the domains in the order they apply (KindredStore's and the core's
    ///   first, then each app's in registration order); domain names must be unique, and
    ///   migration names unique across all domains (they are the records' primary key).
    /// - Throws: `duplicateMigrationDomain`, `duplicateMigrationName`.
    public init(_ domains: [MigrationDomain]) throws(KindredStoreError) {
        var domainOrder: [String: Int] = [:]
        var domainOfMigration: [String: String] = [:]
        for (index, domain) in domains.enumerated() {
            guard domainOrder.updateValue(index, forKey: domain.name) == nil else {
                throw .duplicateMigrationDomain(domain.name)
            }
            for migration in domain.migrations
            where domainOfMigration.updateValue(domain.name, forKey: migration.name) != nil {
                throw .duplicateMigrationName(migration.name)
            }
        }
        self.domains = domains
        self.migrations = domains.flatMap(\.migrations)
        self.domainOrder = domainOrder
        self.domainOfMigration = domainOfMigration
    }

    /// Creates a migrator over one list, the domain `defaultDomain`.
    /// - Parameter migrations: the list, in order; names must be unique.
    /// - Throws: `duplicateMigrationName`.
    public init(_ migrations: [Migration]) throws(KindredStoreError) {
        try self.init([MigrationDomain(Self.defaultDomain, migrations)])
    }

    /// The migrations recorded in the database: by the code's domain order, then position in
    /// the domain; records of domains the code does not know come last.
    ///
    /// Like `migrate`, it first moves the records of an earlier build's `kindred_migrations`
    /// into `kindred_schema_migrations` (and refuses legacy records that do not fit the code).
    /// - Throws: `unknownAppliedMigrations`, `migrationOrderMismatch` (legacy records only), `queryFailed`.
    public func applied(on database: Database) async throws(KindredStoreError) -> [AppliedMigration] {
        let catalog = Catalog(database)
        do {
            return try await database.withMigrationLock { session, begin in
                try await prepare(session: session, begin: begin, catalog: catalog)
                return try await readApplied(session)
            }
        } catch let error as KindredStoreError {
            throw error
        } catch {
            throw .queryFailed("reading \(Self.table): \(Database.describe(error))")
        }
    }

    /// Applies every migration not yet applied: domain by domain in order, each domain's
    /// pending migrations in order.
    /// - Parameters:
    ///   - database: the database to migrate.
    ///   - clock: the time recorded as `applied_at`.
    ///   - logger: one info line per migration applied.
    /// - Returns: the names applied by this call, in the order applied (empty when the
    ///   database was up to date).
    /// - Throws: `unknownAppliedMigrations`, `migrationInWrongDomain`, `migrationOrderMismatch`,
    ///   `migrationFailed`, `queryFailed`.
    @discardableResult
    public func migrate(
        _ database: Database,
        clock: any WallClock = SystemClock(),
        logger: Logger = Logger(label: "kindred.migrations")
    ) async throws(KindredStoreError) -> [String] {
        let catalog = Catalog(database)
        do {
            return try await database.withMigrationLock { session, begin in
                try await prepare(session: session, begin: begin, catalog: catalog)
                return try await migrate(session: session, begin: begin, clock: clock, logger: logger)
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
            alreadyApplied = try await readApplied(session)
        } catch {
            throw KindredStoreError.queryFailed("reading \(Self.table): \(Database.describe(error))")
        }
        try check(alreadyApplied)
        let appliedCount = Dictionary(grouping: alreadyApplied, by: \.domain).mapValues(\.count)
        var appliedNow: [String] = []
        for domain in domains {
            for (index, migration) in domain.migrations.enumerated().dropFirst(appliedCount[domain.name] ?? 0) {
                let didApply = try await apply(
                    migration, domain: domain.name, position: index + 1, session: session, begin: begin, clock: clock
                )
                if didApply {
                    logger.info(
                        "applied migration",
                        metadata: ["migration": "\(migration.name)", "domain": "\(domain.name)"]
                    )
                    appliedNow.append(migration.name)
                }
            }
        }
        return appliedNow
    }

    /// Applies one migration and records it, in one transaction; false when another process
    /// had already applied it.
    private func apply(
        _ migration: Migration, domain: String, position: Int,
        session: any SQLDatabase, begin: String, clock: any WallClock
    ) async throws(KindredStoreError) -> Bool {
        let appliedAt = clock.now().millisecondsSince1970
        do {
            return try await Database.transaction(on: session, begin: begin) { transaction in
                // Another process may have applied it since we looked: the row is the truth.
                guard try await !Self.isRecorded(migration.name, on: transaction) else { return false }
                try await migration.up(transaction)
                try await Self.record(
                    domain: domain, name: migration.name, position: position, appliedAt: appliedAt, on: transaction
                )
                return true
            }
        } catch {
            throw .migrationFailed(name: migration.name, reason: Database.describe(error))
        }
    }
}
