import KindredStore
import KindredTestSupport
import Testing

@Suite struct DatabaseURLTests {
    @Test func sqliteForms() throws {
        #expect(try DatabaseURL(parsing: "sqlite:./kindred-data/kindred.sqlite") == .sqlite(path: "./kindred-data/kindred.sqlite"))
        #expect(try DatabaseURL(parsing: "sqlite:/var/lib/kindred.sqlite") == .sqlite(path: "/var/lib/kindred.sqlite"))
        #expect(try DatabaseURL(parsing: "sqlite:///var/lib/kindred.sqlite") == .sqlite(path: "/var/lib/kindred.sqlite"))
        #expect(try DatabaseURL(parsing: "sqlite::memory:") == .sqliteMemory)
        #expect(DatabaseURL.embeddedDefault == .sqlite(path: "./kindred-data/kindred.sqlite"))
    }

    @Test func postgresForms() throws {
        let url = try DatabaseURL(parsing: "postgres://kindred:s%40cret@db.internal:6432/kindred_prod?sslmode=require")
        #expect(url == .postgres(.init(
            host: "db.internal", port: 6432, username: "kindred", password: "s@cret",
            database: "kindred_prod", sslMode: "require"
        )))
        let defaults = try DatabaseURL(parsing: "postgresql://app@localhost/kindred")
        #expect(defaults == .postgres(.init(
            host: "localhost", port: 5432, username: "app", password: nil, database: "kindred", sslMode: "disable"
        )))
    }

    @Test func descriptionNeverShowsThePassword() throws {
        let url = try DatabaseURL(parsing: "postgres://kindred:hunter2@127.0.0.1:5432/kindred")
        #expect(url.description == "postgres://kindred:***@127.0.0.1:5432/kindred")
    }

    @Test(arguments: [
        ("mysql://u:p@h/db", "unsupported scheme \"mysql\"; use sqlite:PATH, sqlite::memory: or postgres://user:password@host:port/database"),
        ("", "unsupported scheme \"\"; use sqlite:PATH, sqlite::memory: or postgres://user:password@host:port/database"),
        ("./kindred.sqlite", "unsupported scheme \"./kindred.sqlite\"; use sqlite:PATH, sqlite::memory: or postgres://user:password@host:port/database"),
        ("sqlite:", "sqlite: needs a file path, e.g. sqlite:./kindred.sqlite"),
        ("postgres://u:p@/db", "postgres:// URL has no host"),
        ("postgres://h:5432/db", "postgres:// URL has no user name"),
        ("postgres://u@h:5432", "postgres:// URL must name exactly one database, e.g. /kindred"),
        ("postgres://u@h:5432/a/b", "postgres:// URL must name exactly one database, e.g. /kindred"),
        ("postgres://u@h:5432/db?sslmode=verify-full", "sslmode must be disable, prefer or require"),
        ("postgres://u@h:5432/db?pool=3", "unsupported query parameter \"pool\""),
        ("postgres://u:p@h:99999/db", "port 99999 is out of range"),
        ("postgres://u:p@h:port/db", "not a well-formed postgres:// URL"),
    ])
    func rejects(input: String, reason: String) {
        #expect(throws: KindredStoreError.invalidDatabaseURL(reason)) { try DatabaseURL(parsing: input) }
    }
}
