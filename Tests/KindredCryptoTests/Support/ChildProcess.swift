import Foundation

/// Runs a program for interop tests (the Python tink peer, the `kindred` executable), with
/// stdin from a file and stdout/stderr captured through files, so large streams cannot deadlock a pipe.
enum ChildProcess {
    struct Result {
        let status: Int32
        let stdout: [UInt8]
        let stderr: String
    }

    /// Whether the tests run in CI (env `CI=true`), where a missing peer is a failure, not a skip.
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// Runs `executable` with `arguments`, feeding it `stdin` (a file path) if given.
    static func run(_ executable: String, _ arguments: [String], stdin: URL? = nil) throws -> Result {
        let directory = try TemporaryDirectory()
        let out = directory.url.appendingPathComponent("stdout")
        let err = directory.url.appendingPathComponent("stderr")
        try Data().write(to: out)
        try Data().write(to: err)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let outHandle = try FileHandle(forWritingTo: out)
        let errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        if let stdin { process.standardInput = try FileHandle(forReadingFrom: stdin) } else { process.standardInput = FileHandle.nullDevice }
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        return Result(status: process.terminationStatus, stdout: Array(try Data(contentsOf: out)),
                      stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }
}

/// A fresh temporary directory, removed when the value is released.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("kindred-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `bytes` to `name` in the directory and returns its URL.
    func write(_ name: String, _ bytes: [UInt8]) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file
    }

    /// Reads `name` from the directory.
    func read(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: url.appendingPathComponent(name)))
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
