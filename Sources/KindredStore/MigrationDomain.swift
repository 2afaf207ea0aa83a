/// A named, append-only list of migrations owned by one part of the code (KindredStore's own
/// tables, accounts, jobs, …).
///
/// The migrator checks order within each domain, not across them, so a migration appended to
/// one domain never disturbs the others. A domain's name is stored with each of its applied
/// migrations: once shipped, neither the name nor the domain a migration belongs to changes.
public struct MigrationDomain: Sendable {
    /// The permanent name stored in `kindred_schema_migrations.domain` (e.g. `store`, `accounts`).
    public let name: String
    /// The domain's migrations, in the order they apply. Append only.
    public let migrations: [Migration]

    /// Creates a domain.
    /// - Parameters:
    ///   - name: the permanent name, unique among the domains given to one `Migrator`.
    ///   - migrations: the list, in order; each name unique across every domain.
    public init(_ name: String, _ migrations: [Migration]) {
        self.name = name
        self.migrations = migrations
    }
}
