import Foundation

/// `pg_dump` of a test database, for scanning everything PostgreSQL stores as one blob.
public enum PostgresDump {
    /// Why a dump could not be made.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        /// A failure with its description.
        public init(description: String) {
            self.description = description
        }
    }

    /// The newest `pg_dump` under `/usr/lib/postgresql/*/bin` (Debian's layout; scripts/test installs it).
    public static func executable() -> URL? {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return versions.sorted { $0.compare($1, options: .numeric) == .orderedAscending }.reversed()
            .map { root.appendingPathComponent($0).appendingPathComponent("bin/pg_dump") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// The plain-SQL dump (schema and every row, `COPY` text) of the database at `url`.
    /// - Returns: `nil` when no `pg_dump` is installed and `CI` is not `true`.
    /// - Throws: `Failure` when `pg_dump` is missing under `CI=true`, or exits non-zero.
    public static func dump(_ url: String) throws -> Data? {
        guard let executable = executable() else {
            if TestDatabases.isCI { throw Failure(description: "pg_dump not found under /usr/lib/postgresql/*/bin (CI=true requires it)") }
            return nil
        }
        let result = try ChildProcess.run(executable.path, ["--no-owner", "--no-privileges", "--dbname", url])
        guard result.status == 0 else { throw Failure(description: "pg_dump exited \(result.status): \(result.stderr)") }
        return Data(result.stdout)
    }
}
