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
        let port = try freeLoopbackPort()

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
        let chunked = try rawHTTP(
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

/// Sends one raw HTTP/1.1 request and returns the whole response (the server closes after it).
func rawHTTP(port: Int, head: String, body: String) throws -> String {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EMFILE) }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
    guard connected else { throw POSIXError(.ECONNREFUSED) }
    let request = Array((head + body).utf8)
    var sent = 0
    while sent < request.count {
        let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 { break }  // the server may answer and close before reading everything
        sent += n
    }
    shutdown(fd, Int32(SHUT_WR))
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = recv(fd, &buffer, buffer.count, 0)
        if n <= 0 { break }
        response += buffer[0..<n]
    }
    return String(decoding: response, as: UTF8.self)
}


/// Asks the kernel for a free loopback port by binding port 0, then releases it.
func freeLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EMFILE) }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    return Int(UInt16(bigEndian: address.sin_port))
}

