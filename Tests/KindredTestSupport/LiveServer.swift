#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// The built `kindred serve` running as a real process on a free loopback port, for the live
/// tests: started on a temporary SQLite file (or a given database), stopped with SIGTERM, and
/// restartable on the same port and database.
public actor LiveServer {
    /// What a stopped server left behind.
    public struct Stopped: Sendable {
        /// The exit status (0 after a clean shutdown).
        public let status: Int32
        /// Everything the server wrote to standard error (its logs).
        public let stderr: String
    }

    /// Why a server did not come up.
    public struct Failure: Error, CustomStringConvertible {
        /// What happened, with the server's logs.
        public let description: String
    }

    /// Settings for tests: cheap password hashing, no per-address limits on loopback.
    public static let testEnvironment: [String: String] = [
        "KINDRED_AUTH_PASSWORD_MEMORY_KIB": "1024",
        "KINDRED_AUTH_PASSWORD_ITERATIONS": "1",
        "KINDRED_AUTH_LOOPBACK_EXEMPT": "true",
    ]

    /// The port it listens on (the same after a restart).
    public nonisolated let port: Int
    /// `http://127.0.0.1:PORT`.
    public nonisolated let url: URL
    /// The database it serves (the same after a restart).
    public nonisolated let databaseURL: String
    private let environment: [String: String]
    private let folder: TemporaryDirectory
    private var running: Running?

    /// One running process and what collects its output.
    private struct Running {
        let process: Process
        let logs: PipeCollector
        let exit: ExitSignal
    }

    /// Starts `kindred serve` and waits until `/ready` answers 200.
    /// - Parameters:
    ///   - databaseURL: the database (a new SQLite file in a temporary folder when `nil`).
    ///   - environment: extra `KINDRED_*` settings, over `testEnvironment`; the test process's
    ///     own `KINDRED_*` variables are not inherited.
    /// - Throws: `Failure` when the server exits or is not ready within `readyTimeout`.
    public init(databaseURL: String? = nil, environment: [String: String] = [:],
                readyTimeout: Duration = .seconds(30)) async throws {
        folder = try TemporaryDirectory()
        port = try LoopbackHTTP.freePort()
        url = URL(string: "http://127.0.0.1:\(port)")!
        self.databaseURL = databaseURL ?? "sqlite:\(folder.url.path)/kindred.sqlite"
        self.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("KINDRED_") }
            .merging(Self.testEnvironment) { $1 }.merging(environment) { $1 }
        try await launch(readyTimeout: readyTimeout)
    }

    /// Stops the server with SIGTERM and waits for it to exit.
    public func stop() async -> Stopped {
        guard let running else { return Stopped(status: 0, stderr: "") }
        self.running = nil
        _ = signalProcess(running.process.processIdentifier, SIGTERM)
        let status = await running.exit.wait()
        return Stopped(status: status, stderr: running.logs.finish())
    }

    /// The server's log so far (empty when it is not running).
    public func log() -> String {
        running?.logs.snapshot() ?? ""
    }

    /// Waits until the log contains `text`.
    /// - Returns: whether it appeared within `timeout`.
    public func waitForLog(_ text: String, timeout: Duration = .seconds(15)) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if log().contains(text) { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return log().contains(text)
    }

    /// Stops the server with SIGTERM, and kills it with SIGKILL if it has not exited within
    /// `timeout` (a shutdown that hangs then fails the test instead of hanging the suite).
    /// - Returns: what it left behind, and whether it had to be killed.
    public func stop(killingAfter timeout: Duration) async -> (stopped: Stopped, killed: Bool) {
        guard let running else { return (Stopped(status: 0, stderr: ""), false) }
        let pid = running.process.processIdentifier
        _ = signalProcess(pid, SIGTERM)
        let deadline = ContinuousClock.now + timeout
        while running.process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        let killed = running.process.isRunning
        if killed { _ = signalProcess(pid, SIGKILL) }
        self.running = nil
        let status = await running.exit.wait()
        return (Stopped(status: status, stderr: running.logs.finish()), killed)
    }

    /// Kills the server with SIGKILL (no shutdown: in-flight work is lost as in a crash) and
    /// waits for it to exit.
    public func kill() async -> Stopped {
        guard let running else { return Stopped(status: 0, stderr: "") }
        self.running = nil
        _ = signalProcess(running.process.processIdentifier, SIGKILL)
        let status = await running.exit.wait()
        return Stopped(status: status, stderr: running.logs.finish())
    }

    /// Starts the server again (after `stop()` or `kill()`) on the same port and database.
    public func start(readyTimeout: Duration = .seconds(30)) async throws {
        guard running == nil else { return }
        try await launch(readyTimeout: readyTimeout)
    }

    /// Stops the server and starts it again on the same port and database.
    /// - Returns: what the first process left behind.
    @discardableResult
    public func restart(readyTimeout: Duration = .seconds(30)) async throws -> Stopped {
        let stopped = await stop()
        try await launch(readyTimeout: readyTimeout)
        return stopped
    }

    private func launch(readyTimeout: Duration) async throws {
        let process = Process()
        process.executableURL = ChildProcess.kindredExecutable
        process.arguments = ["serve", "--port", String(port), "--database-url", databaseURL, "--log-level", "info"]
        process.environment = environment
        let logs = Pipe()
        process.standardError = logs
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let exit = ExitSignal()
        process.terminationHandler = { exit.fire($0.terminationStatus) }
        try process.run()
        let collector = PipeCollector(handle: logs.fileHandleForReading)
        running = Running(process: process, logs: collector, exit: exit)

        let deadline = ContinuousClock.now + readyTimeout
        while true {
            if let status = exit.status {
                running = nil
                throw Failure(description: "kindred serve exited with \(status) before it was ready:\n\(collector.finish())")
            }
            let answer = try? LoopbackHTTP.exchange(port: port, head: "GET /ready HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            if answer?.hasPrefix("HTTP/1.1 200") == true { return }
            if ContinuousClock.now > deadline {
                let stopped = await stop()
                throw Failure(description: "kindred serve was not ready within \(readyTimeout):\n\(stopped.stderr)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    deinit {
        // A test that forgot stop(): do not leave a server behind.
        if let running { _ = signalProcess(running.process.processIdentifier, SIGKILL) }
    }
}

/// `kill(2)`, named apart from `LiveServer.kill()`.
private func signalProcess(_ pid: pid_t, _ signal: Int32) -> Int32 {
    kill(pid, signal)
}

/// A process's exit, awaited from async code (set from `Process.terminationHandler`).
final class ExitSignal: Sendable {
    private let state = Mutex<(status: Int32?, waiters: [CheckedContinuation<Int32, Never>])>((nil, []))

    /// The exit status, once the process exited.
    var status: Int32? { state.withLock { $0.status } }

    /// Records the exit and wakes every waiter.
    func fire(_ status: Int32) {
        let waiters = state.withLock { state in
            state.status = status
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: status) }
    }

    /// Waits for the exit status.
    func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            let status = state.withLock { state -> Int32? in
                if let status = state.status { return status }
                state.waiters.append(continuation)
                return nil
            }
            if let status { continuation.resume(returning: status) }
        }
    }
}
