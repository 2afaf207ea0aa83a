@testable import AdminConsole
@testable import BillingServer
@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import Hummingbird
import KindredAPI
import KindredStore
import KindredTestSupport
import Logging
import NIOPosix
import ServiceLifecycle
import Testing

/// A graceful shutdown finishes every connection, whatever it was doing when the shutdown
/// began, and then the server stops (`QuiescingChildChannel`).
@Suite struct GracefulShutdownTests {
    /// How long the server may take to stop once its last answer is out: a hang (the bug these
    /// tests guard against) never stops; 20 s leaves room for a loaded 2-core run of the whole
    /// suite, where one stop once took over 10 s.
    static let stopLimit: Duration = .seconds(20)

    @Test("A connection that has sent nothing is closed at once, and the server stops")
    func idleConnection() async throws {
        try await Self.withServer { port, shutdown in
            let connection = try LoopbackHTTP.Connection(port: port)
            try await Task.sleep(for: .milliseconds(200))
            await shutdown()
            let received = try await Self.blocking { try connection.readUntilClosed() }
            #expect(received.isEmpty)
        }
    }

    @Test("A request head half sent when the shutdown begins is answered, then the connection is closed")
    func halfSentHead() async throws {
        try await Self.withServer { port, shutdown in
            let connection = try LoopbackHTTP.Connection(port: port)
            try await Self.blocking { try connection.write("GET /health HTTP/1.1\r\nHost: kindred\r\n") }
            try await Task.sleep(for: .milliseconds(200))
            await shutdown()
            try await Task.sleep(for: .milliseconds(200))
            try await Self.blocking { try connection.write("\r\n") }
            let received = try await Self.blocking { try connection.readUntilClosed() }
            #expect(received.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(received.hasSuffix(#"{"status":"ok"}"#))
        }
    }

    @Test("A kept-alive connection that was answered before the shutdown is closed")
    func answeredConnection() async throws {
        try await Self.withServer { port, shutdown in
            let connection = try LoopbackHTTP.Connection(port: port)
            try await Self.blocking { try connection.write("GET /health HTTP/1.1\r\nHost: kindred\r\n\r\n") }
            try await Task.sleep(for: .milliseconds(300))
            await shutdown()
            let received = try await Self.blocking { try connection.readUntilClosed() }
            #expect(received.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(received.hasSuffix(#"{"status":"ok"}"#))
        }
    }

    /// Runs the server on a fresh SQLite database; `body` gets its port and a function that
    /// begins the graceful shutdown. Fails when the server has not stopped `stopLimit` after
    /// `body` returned (its connections closed by then).
    static func withServer(
        _ body: @escaping @Sendable (Int, @escaping @Sendable () async -> Void) async throws -> Void
    ) async throws {
        try await TestDatabases.with(.sqlite) { database in
            var quiet = Logger(label: "kindred.test")
            quiet.logLevel = .critical
            let parts = try await TestApplication.serverParts(on: database, logLevel: .critical)
            let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
            let app = Application(
                router: parts.router, server: parts.serverBuilder,
                configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                services: [parts.realtime],
                onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port ?? 0) },
                logger: quiet
            )
            let group = ServiceGroup(configuration: .init(services: [app], logger: quiet))
            let stopped = try await withThrowingTaskGroup(of: Bool.self) { tasks in
                tasks.addTask {
                    try await group.run()
                    return true
                }
                var iterator = ports.makeAsyncIterator()
                let port = try #require(await iterator.next())
                do {
                    try await body(port) { await group.triggerGracefulShutdown() }
                } catch {
                    await group.triggerGracefulShutdown()
                    throw error
                }
                tasks.addTask {
                    try await Task.sleep(for: stopLimit)
                    return false
                }
                let first = try await tasks.next() ?? false
                tasks.cancelAll()
                return first
            }
            #expect(stopped, "the server was still running \(stopLimit) after its last connection's answer")
        }
    }

    /// Runs a blocking socket call on NIO's blocking pool.
    static func blocking<T: Sendable>(_ call: @escaping @Sendable () throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive(call)
    }
}
