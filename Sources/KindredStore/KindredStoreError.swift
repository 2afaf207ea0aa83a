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
    /// Two migrations in the code share a name.
    case duplicateMigrationName(String)
    /// The database has applied migrations this build does not know (a newer build ran on it).
    case unknownAppliedMigrations([String])
    /// The applied migrations are not a prefix of the code's list, in order.
    case migrationOrderMismatch(position: Int, expected: String, applied: String)
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
        case .unknownAppliedMigrations(let names):
            "the database has migrations this build does not know: \(names.joined(separator: ", "))"
        case .migrationOrderMismatch(let position, let expected, let applied):
            "migration \(position + 1) applied to the database is \(applied), the code expects \(expected)"
        case .migrationFailed(let name, let reason): "migration \(name) failed and was rolled back: \(reason)"
        case .invalidRateLimit(let why): "invalid rate limit: \(why)"
        case .closed: "the database is closed"
        }
    }
}
