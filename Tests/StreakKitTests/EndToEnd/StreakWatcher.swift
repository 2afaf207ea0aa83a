import Foundation
import KindredTestSupport
import NIOConcurrencyHelpers

/// A `kindred streaks … --json` command left running (`board --watch`): its standard output read
/// line by line as it is written, each line one JSON document.
final class StreakWatcher: Sendable {
    private let process: Process
    private let lines = NIOLockedValueBox<(complete: [String], partial: String)>(([], ""))

    /// Starts `kindred streaks ARGS --profile P --server S --json` for `phone`.
    init(_ phone: StreakPhone, _ arguments: [String]) throws {
        process = Process()
        process.executableURL = ChildProcess.kindredExecutable
        process.arguments = ["streaks"] + arguments + ["--profile", phone.profile, "--server", phone.server.absoluteString, "--json"]
        process.environment = StreakPhone.environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let lines = lines
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                return
            }
            lines.withLockedValue { state in
                state.partial += String(decoding: data, as: UTF8.self)
                while let newline = state.partial.firstIndex(of: "\n") {
                    state.complete.append(String(state.partial[..<newline]))
                    state.partial = String(state.partial[state.partial.index(after: newline)...])
                }
            }
        }
        try process.run()
    }

    /// Waits until `count` lines were printed (at most `seconds`); the JSON objects printed so far.
    func objects(count: Int, within seconds: Double = 60) async throws -> [[String: Any]] {
        let deadline = Date().addingTimeInterval(seconds)
        while lines.withLockedValue({ $0.complete.count }) < count, Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        return try lines.withLockedValue { $0.complete }.map {
            guard let object = try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] else {
                throw StreakPhone.Failure(description: "not a JSON object: \($0)")
            }
            return object
        }
    }

    /// Waits for the process to end (at most `seconds`, then it is killed); its exit status.
    func exitStatus(within seconds: Double = 30) async throws -> Int32 {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
