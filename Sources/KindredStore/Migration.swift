import SQLKit

/// One named, append-only step of the schema. Once shipped, a migration is never edited,
/// removed or moved to another domain; a change is a new migration at the end of its domain's
/// list (`MigrationDomain`).
public struct Migration: Sendable {
    /// The permanent name stored in `kindred_schema_migrations` (e.g. `0001_rate_limit_events`),
    /// unique across every domain.
    public let name: String
    /// Applies the step. It runs inside the migrator's transaction.
    public let up: @Sendable (any SQLDatabase) async throws -> Void

    /// Creates a migration.
    /// - Parameters:
    ///   - name: the permanent name.
    ///   - up: the statements, using SQLKit builders or `\(ident:)`/`\(bind:)` raw SQL.
    public init(_ name: String, up: @escaping @Sendable (any SQLDatabase) async throws -> Void) {
        self.name = name
        self.up = up
    }
}

/// The migrations of KindredStore's own tables, in order. Append only.
public enum StoreMigrations {
    /// Every migration KindredStore ships.
    public static let all: [Migration] = [
        RateLimiter.migration,
    ]

    /// KindredStore's migrations as the domain `store`, the first a server passes to `Migrator`.
    public static let domain = MigrationDomain("store", all)
}
