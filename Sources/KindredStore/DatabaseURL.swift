import Foundation

/// Where the server's data lives: an SQLite file (the embedded default), a private in-memory
/// SQLite database (tests), or a PostgreSQL server.
///
/// Accepted spellings: `sqlite:PATH` (relative or absolute), `sqlite::memory:`, and
/// `postgres://user:password@host:port/database` (`postgresql://` too; port defaults to 5432;
/// an optional `?sslmode=disable|prefer|require`).
public enum DatabaseURL: Sendable, Equatable, CustomStringConvertible {
    /// An SQLite database in the file at `path`.
    case sqlite(path: String)
    /// A private SQLite database in memory, gone when the `Database` closes.
    case sqliteMemory
    /// A PostgreSQL server.
    case postgres(Postgres)

    /// The parts of a `postgres://` URL.
    public struct Postgres: Sendable, Equatable {
        /// The host name or address.
        public var host: String
        /// The TCP port.
        public var port: Int
        /// The user name.
        public var username: String
        /// The password, if any. Never printed.
        public var password: String?
        /// The database name.
        public var database: String
        /// The `sslmode` query value (`disable` when absent).
        public var sslMode: String

        /// Creates the parts of a PostgreSQL URL.
        public init(
            host: String, port: Int = 5432, username: String, password: String? = nil,
            database: String, sslMode: String = "disable"
        ) {
            self.host = host
            self.port = port
            self.username = username
            self.password = password
            self.database = database
            self.sslMode = sslMode
        }
    }

    /// The embedded default of `kindred serve`.
    public static let embeddedDefault = DatabaseURL.sqlite(path: "./kindred-data/kindred.sqlite")

    /// Parses a database URL.
    /// - Parameter string: the URL text.
    /// - Throws: `KindredStoreError.invalidDatabaseURL` naming what is wrong.
    public init(parsing string: String) throws(KindredStoreError) {
        if string == "sqlite::memory:" {
            self = .sqliteMemory
        } else if string.hasPrefix("sqlite:") {
            var path = String(string.dropFirst("sqlite:".count))
            if path.hasPrefix("//") { path.removeFirst(2) }  // sqlite://PATH is accepted too
            guard !path.isEmpty else { throw .invalidDatabaseURL("sqlite: needs a file path, e.g. sqlite:./kindred.sqlite") }
            guard !path.contains("\0") else { throw .invalidDatabaseURL("the sqlite path contains a NUL byte") }
            self = .sqlite(path: path)
        } else if string.hasPrefix("postgres://") || string.hasPrefix("postgresql://") {
            self = .postgres(try Self.parsePostgres(string))
        } else {
            let scheme = string.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
            throw .invalidDatabaseURL(
                "unsupported scheme \"\(scheme.prefix(20))\"; use sqlite:PATH, sqlite::memory: or postgres://user:password@host:port/database"
            )
        }
    }

    private static func parsePostgres(_ string: String) throws(KindredStoreError) -> Postgres {
        guard let components = URLComponents(string: string) else {
            throw .invalidDatabaseURL("not a well-formed postgres:// URL")
        }
        guard let host = components.host, !host.isEmpty else {
            throw .invalidDatabaseURL("postgres:// URL has no host")
        }
        guard let username = components.user, !username.isEmpty else {
            throw .invalidDatabaseURL("postgres:// URL has no user name")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw .invalidDatabaseURL("postgres:// URL must name exactly one database, e.g. /kindred")
        }
        let port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw .invalidDatabaseURL("port \(port) is out of range") }
        var sslMode = "disable"
        for item in components.queryItems ?? [] {
            switch (item.name, item.value) {
            case ("sslmode", let value?) where ["disable", "prefer", "require"].contains(value):
                sslMode = value
            case ("sslmode", _):
                throw .invalidDatabaseURL("sslmode must be disable, prefer or require")
            default:
                throw .invalidDatabaseURL("unsupported query parameter \"\(item.name)\"")
            }
        }
        return Postgres(
            host: host, port: port, username: username,
            password: components.password, database: database, sslMode: sslMode
        )
    }

    /// The URL with any password replaced by `***`, safe to log.
    public var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .sqliteMemory: "sqlite::memory:"
        case .postgres(let pg):
            "postgres://\(pg.username)\(pg.password == nil ? "" : ":***")@\(pg.host):\(pg.port)/\(pg.database)"
                + (pg.sslMode == "disable" ? "" : "?sslmode=\(pg.sslMode)")
        }
    }
}
