/// Every failure KindredStore reports. Messages never contain a password or a bound value.
public enum KindredStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A database URL that is not `sqlite:PATH`, `sqlite::memory:` or `postgres://…`.
    /// The associated text says what is wrong and never repeats a password.
    case invalidDatabaseURL(String)
    /// A database setting out of range (pool size, busy timeout, …).
    case invalidConfiguration(String)
    /// The database could not be opened or reached.
    case connectionFailed(String)
    /// A statement failed; the text names the operation, not the bound values.
    case queryFailed(String)
    /// Two migrations in the code share a name, in the same domain or in two domains.
    case duplicateMigrationName(String)
    /// Two migration domains in the code share a name.
    case duplicateMigrationDomain(String)
    /// The database has applied migrations this build does not know, or recorded them under a
    /// domain this build does not have (a newer build ran on it). Names in the database's order.
    case unknownAppliedMigrations([String])
    /// The migrations a domain has applied are not, in order, a prefix of that domain's list:
    /// at `position` (from 1) the database has `applied` (empty when it skipped that position)
    /// where the code expects `expected`.
    case migrationOrderMismatch(domain: String, position: Int, expected: String, applied: String)
    /// The database recorded migration `name` under domain `recorded`, but the code lists it
    /// in domain `expected`: a migration never moves to another domain once shipped.
    case migrationInWrongDomain(name: String, recorded: String, expected: String)
    /// A migration's `up` failed; its transaction was rolled back.
    case migrationFailed(name: String, reason: String)
    /// A rate-limit check with a non-positive limit or window.
    case invalidRateLimit(String)
    /// The database was used after `close()`.
    case closed

    /// A one-line description of the failure.
    public var description: String {
        switch self {
        case .invalidDatabaseURL(let why): "invalid database URL: \(why)"
        case .invalidConfiguration(let why): "invalid database configuration: \(why)"
        case .connectionFailed(let why): "database connection failed: \(why)"
        case .queryFailed(let why): "database query failed: \(why)"
        case .duplicateMigrationName(let name): "two migrations are named \(name)"
        case .duplicateMigrationDomain(let name): "two migration domains are named \(name)"
        case .unknownAppliedMigrations(let names):
            "the database has migrations this build does not know: \(names.joined(separator: ", "))"
        case .migrationOrderMismatch(let domain, let position, let expected, let applied):
            "migration \(position) of domain \(domain) applied to the database is \(applied.isEmpty ? "missing" : applied), "
                + "the code expects \(expected)"
        case .migrationInWrongDomain(let name, let recorded, let expected):
            "migration \(name) is recorded in domain \(recorded), the code has it in domain \(expected)"
        case .migrationFailed(let name, let reason): "migration \(name) failed and was rolled back: \(reason)"
        case .invalidRateLimit(let why): "invalid rate limit: \(why)"
        case .closed: "the database is closed"
        }
    }
}
