import KindredStore

/// The core's migration domains, applied before any app domain's, in this order. Append a new
/// core migration to its own domain's list (`AccountsSchema.migrations`, …); a new core domain goes
/// at the end of this list.
package enum CoreMigrations {
    /// The core's domains, in order.
    package static let domains: [MigrationDomain] = [
        StoreMigrations.domain,
        MigrationDomain("accounts", AccountsSchema.migrations),
        MigrationDomain("jobs", JobsSchema.migrations),
        MigrationDomain("queue", QueueSchema.migrations),
        MigrationDomain("realtime", RealtimeSchema.migrations),
        MigrationDomain("notifications", NotificationsSchema.migrations),
        MigrationDomain("integrity", IntegritySchema.migrations),
    ]

    /// The migrator of the core and `domains`, in registration order.
    /// - Throws: `KindredStoreError` for a duplicate migration or domain name.
    package static func migrator(domains: [any ServerDomain]) throws -> Migrator {
        try Migrator(Self.domains + domains.map(\.migrationDomain))
    }
}
