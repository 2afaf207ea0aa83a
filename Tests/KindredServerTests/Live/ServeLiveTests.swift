@testable import AdminConsole
@testable import BillingServer
@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import KindredTestSupport
import Testing

/// Starts the built `kindred serve` as a real process and stops it with SIGTERM.
@Suite struct ServeLiveTests {
    @Test(.timeLimit(.minutes(1)))
    func serveStartsOnSQLiteAndStopsCleanlyOnSIGTERM() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kindred-serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let databasePath = folder.appendingPathComponent("data/kindred.sqlite").path
        let port = try LoopbackHTTP.freePort()

        let process = Process()
        process.executableURL = ChildProcess.kindredExecutable
        process.arguments = ["serve", "--port", String(port), "--database-url", "sqlite:\(databasePath)", "--log-level", "info"]
        // The body limit comes from the environment, as an operator would set it.
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("KINDRED_") }
            .merging(["KINDRED_MAX_BODY_BYTES": "1024"]) { $1 }
        let logs = Pipe()
        process.standardError = logs
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let collected = PipeCollector(handle: logs.fileHandleForReading)

        let ready = try await poll("http://127.0.0.1:\(port)/ready", until: .seconds(30))
        #expect(ready.status == 200)
        #expect(ready.body == #"{"database":"sqlite","status":"ready"}"#)
        #expect(ready.requestID != nil)

        // The file exists, is in WAL mode (header bytes 18 and 19 are 2), and has its -wal file.
        let header = try #require(FileHandle(forReadingAtPath: databasePath)).readData(ofLength: 20)
        #expect(header.prefix(15) == Data("SQLite format 3".utf8))
        #expect(header[18] == 2 && header[19] == 2)
        #expect(FileManager.default.fileExists(atPath: databasePath + "-wal"))

        // A body without Content-Length is cut off at the limit too.
        let chunked = try LoopbackHTTP.exchange(
            port: port,
            head: "POST /v1/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Kindred-App: closer\r\nTransfer-Encoding: chunked\r\n\r\n",
            body: "400\r\n" + String(repeating: "x", count: 1024) + "\r\n1\r\nx\r\n0\r\n\r\n"
        )
        #expect(chunked.hasPrefix("HTTP/1.1 413"), "\(chunked)")
        #expect(chunked.hasSuffix(#"{"error":{"code":"payload_too_large","message":"the request body is larger than 1024 bytes"}}"#))

        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let output = collected.finish()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0, "stderr:\n\(output)")
        // Closing the last connection checkpoints and removes the WAL: the database closed cleanly.
        #expect(!FileManager.default.fileExists(atPath: databasePath + "-wal"), "stderr:\n\(output)")
        #expect(output.contains("request_id="))
        #expect(output.contains("stopped"))
    }

    struct HTTPAnswer {
        let status: Int
        let body: String
        let requestID: String?
    }

    /// GETs `url` until it answers or `until` passes.
    func poll(_ url: String, until limit: Duration) async throws -> HTTPAnswer {
        let deadline = ContinuousClock.now + limit
        while true {
            do {
                let (data, response) = try await URLSession.shared.data(from: URL(string: url)!)
                let http = try #require(response as? HTTPURLResponse)
                return HTTPAnswer(
                    status: http.statusCode, body: String(decoding: data, as: UTF8.self),
                    requestID: http.value(forHTTPHeaderField: "X-Request-ID")
                )
            } catch {
                if ContinuousClock.now > deadline { throw error }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }
}
