import Foundation

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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let outHandle = try FileHandle(forWritingTo: out)
        let errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = try stdin.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        return Result(status: process.terminationStatus, stdout: Array(try Data(contentsOf: out)),
                      stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
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
