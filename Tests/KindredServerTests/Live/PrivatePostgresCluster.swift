#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import KindredTestSupport

/// A PostgreSQL cluster of one test's own (`initdb` in a temporary folder, on a free loopback
/// port), which the test may stop and start — unlike the shared `KINDRED_TEST_POSTGRES_URL`
/// cluster, which other tests use at the same time. As root, the server runs as the unprivileged
/// user `kindredtest` (PostgreSQL refuses root), as in `scripts/lib/postgres.sh`.
final class PrivatePostgresCluster: Sendable {
    /// Why the cluster could not be made, started or stopped.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The user the server runs as when the tests run as root.
    static let unprivilegedUser = "kindredtest"

    /// The newest `/usr/lib/postgresql/*/bin` holding `initdb` and `pg_ctl` (Debian's layout;
    /// `scripts/test` installs it), or `nil`.
    static let binaries: URL? = {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return versions.sorted { $0.compare($1, options: .numeric) == .orderedAscending }.reversed()
            .map { root.appendingPathComponent($0).appendingPathComponent("bin") }
            .first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("pg_ctl").path)
                && FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("initdb").path) }
    }()

    /// The port it listens on, on 127.0.0.1.
    let port: Int
    /// `postgres://kindred@127.0.0.1:PORT/postgres`.
    let url: String
    private let bin: URL
    private let folder: TemporaryDirectory
    private let runAs: [String]

    /// Creates the cluster with `initdb` and starts it.
    /// - Throws: `Failure` when no binaries are installed or a step fails (with its output).
    init() throws {
        guard let bin = Self.binaries else {
            throw Failure(description: "no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin")
        }
        self.bin = bin
        folder = try TemporaryDirectory()
        port = try LoopbackHTTP.freePort()
        url = "postgres://kindred@127.0.0.1:\(port)/postgres"
        if getuid() == 0 {
            if try ChildProcess.run("/usr/bin/id", [Self.unprivilegedUser]).status != 0 {
                try Self.check("useradd", ChildProcess.run("/usr/sbin/useradd", [
                    "--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin",
                    Self.unprivilegedUser,
                ]))
            }
            try Self.check("chown", ChildProcess.run("/bin/chown", [Self.unprivilegedUser, folder.url.path]))
            runAs = ["/usr/sbin/runuser", "-u", Self.unprivilegedUser, "--"]
        } else {
            runAs = []
        }
        try run("initdb", ["-D", data, "-U", "kindred", "--auth=trust", "--encoding=UTF8", "--no-locale", "--no-sync"])
        try start()
    }

    private var data: String { folder.url.appendingPathComponent("data").path }

    /// Starts the server and waits until it accepts connections.
    func start() throws {
        // Durability is pointless for a throwaway cluster; fsync off keeps the test fast.
        let options = "-h 127.0.0.1 -p \(port) -k \(folder.url.path) -c fsync=off -c synchronous_commit=off"
        try run("pg_ctl", ["-D", data, "-l", folder.url.appendingPathComponent("postgres.log").path,
                           "-o", options, "-w", "-t", "60", "start"])
    }

    /// Stops the server with `pg_ctl stop -m fast` (sessions are terminated, as in an
    /// administrator's restart) and waits until it is down.
    func stop() throws {
        try run("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "60", "stop"])
    }

    /// The server's own log so far.
    func log() -> String {
        (try? String(contentsOf: folder.url.appendingPathComponent("postgres.log"), encoding: .utf8)) ?? ""
    }

    private func run(_ tool: String, _ arguments: [String]) throws {
        let executable = bin.appendingPathComponent(tool).path
        let result = runAs.isEmpty
            ? try ChildProcess.run(executable, arguments)
            : try ChildProcess.run(runAs[0], Array(runAs.dropFirst()) + [executable] + arguments)
        try Self.check(tool, result)
    }

    private static func check(_ tool: String, _ result: ChildProcess.Result) throws {
        guard result.status == 0 else {
            throw Failure(description: "\(tool) exited \(result.status): \(result.text) \(result.stderr)")
        }
    }

    deinit {
        // A test that failed half-way: do not leave a server running on a deleted folder.
        if FileManager.default.fileExists(atPath: data + "/postmaster.pid") {
            try? run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
        }
    }
}
