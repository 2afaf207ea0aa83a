import Foundation
import Testing

/// Runs the built `kindred` executable as a subprocess, as a user or script would.
struct KindredProcess {
    /// What one run produced.
    struct Result {
        let status: Int32
        let stdout: [UInt8]
        let stderr: String
        var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// The `kindred` binary next to this test bundle (SwiftPM puts both in the same folder).
    static let executable: URL = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for dir in [beside, beside.deletingLastPathComponent()] {
            let candidate = dir.appendingPathComponent("kindred")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/kindred")
    }()

    /// Runs `kindred ARGS` with `stdin` as standard input.
    static func run(_ arguments: [String], stdin: [UInt8] = []) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let input = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let writer = Thread {
            input.fileHandleForWriting.write(Data(stdin))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let errorData = ErrorCollector(handle: error.fileHandleForReading)
        let out = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: Array(out), stderr: errorData.finish())
    }

    /// Runs `kindred ARGS` with text on standard input.
    static func run(_ arguments: [String], stdinText: String) throws -> Result {
        try run(arguments, stdin: Array(stdinText.utf8))
    }
}

/// Drains a pipe on its own thread so a chatty child cannot block on a full stderr pipe.
final class ErrorCollector: @unchecked Sendable {
    // @unchecked: `data` is written only by the reader thread before `done` is signalled,
    // and read only after waiting on `done`.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(handle: FileHandle) {
        Thread {
            self.data = handle.readDataToEndOfFile()
            self.done.signal()
        }.start()
    }

    func finish() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}

/// A temporary directory removed when the test ends.
struct TemporaryDirectory: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("kindred-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = url.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
