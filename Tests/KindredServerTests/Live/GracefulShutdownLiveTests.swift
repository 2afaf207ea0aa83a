@testable import AdminConsole
@testable import BillingServer
@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredTestSupport
import Testing

/// SIGTERM while a request is in flight: the request completes, its write is committed, then
/// the server exits 0 and the database is closed cleanly.
@Suite struct GracefulShutdownLiveTests {
    @Test(.timeLimit(.minutes(1)))
    func anInFlightSignUpFinishesAfterSIGTERM() async throws {
        let folder = try TemporaryDirectory()
        let databasePath = folder.url.appendingPathComponent("kindred.sqlite").path
        let port = try LoopbackHTTP.freePort()
        let process = Process()
        process.executableURL = ChildProcess.kindredExecutable
        process.arguments = ["serve", "--port", String(port), "--database-url", "sqlite:\(databasePath)", "--log-level", "info"]
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("KINDRED_") }
            .merging(["KINDRED_AUTH_PASSWORD_MEMORY_KIB": "64", "KINDRED_AUTH_PASSWORD_ITERATIONS": "1"]) { $1 }
        let logs = Pipe()
        process.standardError = logs
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let collected = PipeCollector(handle: logs.fileHandleForReading)

        let connection = try await RawConnection.connect(port: port, within: .seconds(30))
        let body = #"{"email":"in-flight@example.com","password":"finishes anyway"}"#
        let head = "POST /v1/auth/signup HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Kindred-App: closer\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        // The head and half the body arrive; then the server is told to stop.
        try connection.send(head + String(body.prefix(20)))
        try await Task.sleep(for: .milliseconds(300))
        kill(process.processIdentifier, SIGTERM)
        try await Task.sleep(for: .milliseconds(300))
        #expect(process.isRunning, "the server must wait for the request in flight")
        try connection.send(String(body.dropFirst(20)))
        let response = connection.receiveAll()
        #expect(response.hasPrefix("HTTP/1.1 201"), "\(response)")
        #expect(response.contains(#""email":"in-flight@example.com""#))

        process.waitUntilExit()
        let output = collected.finish()
        #expect(process.terminationStatus == 0, "stderr:\n\(output)")
        #expect(!FileManager.default.fileExists(atPath: databasePath + "-wal"), "the database was not closed cleanly:\n\(output)")
        // The acknowledged write is on disk.
        let count = try ChildProcess.run(
            "/usr/bin/env", ["python3", "-c",
                "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT COUNT(*) FROM kindred_credentials').fetchone()[0])",
                databasePath],
            input: []
        )
        #expect(count.text == "1\n", "\(count.stderr)")
    }
}

/// A blocking TCP connection to a loopback port, for requests sent in pieces.
final class RawConnection: Sendable {
    let fd: Int32

    private init(fd: Int32) {
        self.fd = fd
    }

    deinit {
        close(fd)
    }

    /// Connects, retrying until the server listens or `within` passes.
    static func connect(port: Int, within limit: Duration) async throws -> RawConnection {
        let deadline = ContinuousClock.now + limit
        while true {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw POSIXError(.EMFILE) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            if connected { return RawConnection(fd: fd) }
            close(fd)
            if ContinuousClock.now > deadline { throw POSIXError(.ECONNREFUSED) }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Sends all of `text`.
    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw POSIXError(.EPIPE) }
            sent += n
        }
    }

    /// Reads until the server closes the connection.
    func receiveAll() -> String {
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            response += buffer[0..<n]
        }
        return String(decoding: response, as: UTF8.self)
    }
}
