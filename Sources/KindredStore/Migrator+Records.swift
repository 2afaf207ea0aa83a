import Foundation
import SQLKit

extension Migrator {
    /// Creates `kindred_schema_migrations` when missing: one row per applied migration, unique
    /// by name and by position within its domain.
    static func createTable(_ sql: any SQLDatabase) async throws {
        try await sql.create(table: table).ifNotExists()
            .column("domain", type: .text, .notNull)
            .column("name", type: .text, .primaryKey(autoIncrement: false))
            .column("position", type: .bigint, .notNull)
            .column("applied_at", type: .bigint, .notNull)
            .unique("domain", "position")
            .run()
    }

    /// Records that `name` was applied as migration `position` (from 1) of `domain`.
    static func record(
        domain: String, name: String, position: Int, appliedAt: Int64, on sql: any SQLDatabase
    ) async throws {
        try await sql.insert(into: table)
            .columns("domain", "name", "position", "applied_at")
            .values(SQLBind(domain), SQLBind(name), SQLBind(position), SQLBind(appliedAt))
            .run()
    }

    /// Whether a migration named `name` is recorded, in any domain.
    static func isRecorded(_ name: String, on sql: any SQLDatabase) async throws -> Bool {
        try await sql.select().column("name").from(table).where("name", .equal, name).first() != nil
    }

    /// Every record, by the code's domain order, then position; unknown domains last, by name.
    func readApplied(_ sql: any SQLDatabase) async throws -> [AppliedMigration] {
        let records = try await sql.select().columns("domain", "name", "position", "applied_at").from(Self.table)
            .orderBy("domain").orderBy("position").all()
            .map { row in
                AppliedMigration(
                    domain: try row.decode(column: "domain", as: String.self),
                    name: try row.decode(column: "name", as: String.self),
                    sequence: try row.decode(column: "position", as: Int.self),
                    appliedAt: Date(
                        timeIntervalSince1970: TimeInterval(try row.decode(column: "applied_at", as: Int64.self)) / 1000
                    )
                )
            }
        // A stable sort: within a domain, and among unknown domains, the query's order stays.
        return records.enumerated().sorted { lhs, rhs in
            let left = domainOrder[lhs.element.domain] ?? domainOrder.count
            let right = domainOrder[rhs.element.domain] ?? domainOrder.count
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// Checks the records against the code: every record's name and domain known, each name
    /// in the domain that lists it, and each domain's records, by position, a prefix of its list.
    /// - Parameter applied: the records, in the order `readApplied` returns them.
    /// - Throws: `unknownAppliedMigrations`, `migrationInWrongDomain`, `migrationOrderMismatch`.
    func check(_ applied: [AppliedMigration]) throws(KindredStoreError) {
        let unknown = applied.filter { domainOrder[$0.domain] == nil || domainOfMigration[$0.name] == nil }
        guard unknown.isEmpty else { throw .unknownAppliedMigrations(unknown.map(\.name)) }
        for record in applied {
            if let expected = domainOfMigration[record.name], expected != record.domain {
                throw .migrationInWrongDomain(name: record.name, recorded: record.domain, expected: expected)
            }
        }
        let byDomain = Dictionary(grouping: applied, by: \.domain)
        for domain in domains {
            let records = (byDomain[domain.name] ?? []).sorted { $0.sequence < $1.sequence }
            // Names are unique and all in this domain's list, so zip drops no record.
            for (index, (record, migration)) in zip(records, domain.migrations).enumerated() {
                let position = index + 1
                guard record.sequence == position, record.name == migration.name else {
                    throw .migrationOrderMismatch(
                        domain: domain.name, position: position, expected: migration.name,
                        applied: record.sequence == position ? record.name : ""
                    )
                }
            }
        }
    }
}
