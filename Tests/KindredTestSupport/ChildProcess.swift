import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program for the tests (the built `kindred`, the Python interop peers) with standard
/// input from bytes or a file and standard output and error captured through files, so a large
/// stream can never deadlock a pipe.
public enum ChildProcess {
    /// What one run produced.
    public struct Result: Sendable {
        /// The exit status.
        public let status: Int32
        /// Everything written to standard output.
        public let stdout: [UInt8]
        /// Everything written to standard error, as text.
        public let stderr: String
        /// Standard output as text.
        public var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Whether the tests run in CI (env `CI=true`), where a missing peer fails instead of skipping.
    public static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// Runs `executable ARGUMENTS` with `input` on standard input.
    /// - Parameters:
    ///   - executable: an absolute path (`/usr/bin/env` to find `python3` on the PATH).
    ///   - arguments: the arguments.
    ///   - input: the bytes for standard input.
    ///   - environment: the child's environment (the test process's own when `nil`).
    public static func run(_ executable: String, _ arguments: [String], input: [UInt8] = [],
                           environment: [String: String]? = nil) throws -> Result {
        let directory = try TemporaryDirectory()
        return try run(executable, arguments, stdin: directory.write("stdin", input), environment: environment, in: directory)
    }

    /// Runs `executable ARGUMENTS` with the file `stdin` (or nothing) on standard input.
    public static func run(_ executable: String, _ arguments: [String], stdin: URL?,
                           environment: [String: String]? = nil) throws -> Result {
        try run(executable, arguments, stdin: stdin, environment: environment, in: TemporaryDirectory())
    }

    private static func run(_ executable: String, _ arguments: [String], stdin: URL?,
                            environment: [String: String]?, in directory: TemporaryDirectory) throws -> Result {
        let out = try directory.write("stdout", [])
        let err = try directory.write("stderr", [])
        let status = try spawnAndWait(
            executable, arguments, stdin: stdin?.path ?? "/dev/null", stdout: out.path, stderr: err.path,
            environment: environment ?? ProcessInfo.processInfo.environment
        )
        return Result(status: status, stdout: Array(try Data(contentsOf: out)),
                      stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }

    /// Why a child could not be started.
    public struct SpawnError: Error, CustomStringConvertible {
        /// What failed.
        public let description: String
    }

    /// Starts `executable` with `posix_spawn` (standard streams opened on the given paths in the
    /// child) and waits for it. Foundation's `Process.run()` reads `/proc/self/fd` to close
    /// descriptors and crashed there (SIGSEGV in `findMaximumOpenFromProcSelfFD`) while the
    /// test process opened and closed sockets on other threads.
    /// - Returns: the exit status, or 128 + the signal number when a signal ended the child.
    static func spawnAndWait(
        _ executable: String, _ arguments: [String], stdin: String, stdout: String, stderr: String,
        environment: [String: String]
    ) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable] + arguments).map { strdup($0) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv + [nil], envp + [nil])
        guard spawned == 0 else {
            throw SpawnError(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw SpawnError(description: "waitpid failed: \(String(cString: strerror(errno)))") }
        }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// The built `kindred` executable: SwiftPM puts it next to the test bundle.
    public static let kindredExecutable: URL = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for folder in [beside, beside.deletingLastPathComponent()] {
            let candidate = folder.appendingPathComponent("kindred")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/kindred")
    }()
}
