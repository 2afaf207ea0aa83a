import Foundation
import KindredStore
import SQLKit

/// The backends the conformance suite runs against.
public enum Backend: String, Sendable, CustomStringConvertible {
    case sqlite
    case postgresql

    public var description: String { rawValue }

    /// SQLite always; PostgreSQL when `KINDRED_TEST_POSTGRES_URL` is set, or under CI (where the
    /// PostgreSQL cases then fail instead of silently not running).
    public static var all: [Backend] {
        TestDatabases.postgresURL != nil || TestDatabases.isCI ? [.sqlite, .postgresql] : [.sqlite]
    }
}

/// Fresh, isolated databases for each test: a temporary SQLite file, or a new PostgreSQL
/// database created on the server named by `KINDRED_TEST_POSTGRES_URL` and dropped afterwards.
public enum TestDatabases {
    static let environment = ProcessInfo.processInfo.environment
    public static let postgresURL = environment["KINDRED_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    public static let isCI = environment["CI"] == "true"

    /// Thrown under CI when no PostgreSQL was provided.
    public struct PostgresMissing: Error, CustomStringConvertible {
        /// Creates the error.
        public init() {}

        public var description: String {
            "KINDRED_TEST_POSTGRES_URL is not set, and CI=true requires the PostgreSQL cases to run (scripts/test starts a PostgreSQL)"
        }
    }

    /// Runs `body` with a new, empty database of `backend`, closed and deleted afterwards.
    public static func with<T>(
        _ backend: Backend,
        synchronous: DatabaseConfiguration.SQLiteSynchronous = .full,
        _ body: (Database) async throws -> T
    ) async throws -> T {
        switch backend {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("kindred-store-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let database = try await Database.open(
                DatabaseConfiguration(
                    url: .sqlite(path: folder.appendingPathComponent("test.sqlite").path),
                    sqliteSynchronous: synchronous
                )
            )
            return try await run(body, on: database)
        case .postgresql:
            guard let postgresURL else { throw PostgresMissing() }
            guard case .postgres(var server) = try DatabaseURL(parsing: postgresURL) else {
                throw KindredStoreError.invalidDatabaseURL("KINDRED_TEST_POSTGRES_URL is not a postgres:// URL")
            }
            let admin = try await Database.open(DatabaseConfiguration(url: .postgres(server), maxConnections: 1))
            let name = "kindred_test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
            try await admin.sql.raw("CREATE DATABASE \(ident: name)").run()
            server.database = name
            do {
                let database = try await Database.open(DatabaseConfiguration(url: .postgres(server)))
                let result = try await run(body, on: database)
                try await admin.sql.raw("DROP DATABASE \(ident: name)").run()
                await admin.close()
                return result
            } catch {
                try? await admin.sql.raw("DROP DATABASE IF EXISTS \(ident: name) WITH (FORCE)").run()
                await admin.close()
                throw error
            }
        }
    }

    private static func run<T>(_ body: (Database) async throws -> T, on database: Database) async throws -> T {
        do {
            let result = try await body(database)
            await database.close()
            return result
        } catch {
            await database.close()
            throw error
        }
    }
}

extension SQLDatabase {
    /// `SELECT COUNT(*) FROM table`.
    public func count(_ table: String) async throws -> Int {
        try await select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from(table)
            .first()?.decode(column: "n", as: Int.self) ?? -1
    }

    /// Whether `table` exists (asks the table itself, which works on every dialect).
    public func tableExists(_ table: String) async -> Bool {
        (try? await select().column(SQLLiteral.numeric("1")).from(table).limit(1).all()) != nil
    }
}
