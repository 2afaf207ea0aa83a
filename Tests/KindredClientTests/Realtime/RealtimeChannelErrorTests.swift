import Foundation
import Hummingbird
import HummingbirdWebSocket
import KindredClient
import NIOCore
import Synchronization
import Testing

/// A channel-scoped `internal` error ends the subscription on the server but leaves the socket
/// open and silent; the client must reconnect and resume after the last event it yielded.
/// Driven against a scripted WebSocket server that injects exactly that fault.
@Suite struct RealtimeChannelErrorTests {
    @Test func aChannelScopedInternalErrorReconnectsAndResumesAfterTheLastEvent() async throws {
        let server = ScriptedRealtimeServer()
        try await server.run { port in
            let session = KindredSession(
                serverURL: URL(string: "http://127.0.0.1:\(port)")!, app: .closer, store: MemoryTokenStore(),
                transport: FakeAccountsServer()
            )
            try await session.signUpAnonymously()
            let stream = session.subscribe(channel: "user:u1", reconnect: RealtimeReconnectPolicy(initialDelay: .milliseconds(20)))
            // A client that ignored the fault would wait on the silent socket forever: give up after 20 s.
            let received = try await withThrowingTaskGroup(of: [RealtimeMessage]?.self) { group in
                group.addTask {
                    var received: [RealtimeMessage] = []
                    for try await message in stream {
                        received.append(message)
                        if received.count == 2 { break }
                    }
                    return received
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(20))
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            #expect(received == [
                .event(channel: "user:u1", seq: 1, type: "test.tick", data: #"{"n":1}"#),
                .event(channel: "user:u1", seq: 2, type: "test.tick", data: #"{"n":2}"#),
            ])
        }
        // One socket left open and silent by the fault, a second one resumed after seq 1.
        #expect(server.subscribeFrames == [
            #"{"op":"subscribe","channel":"user:u1"}"#,
            #"{"op":"subscribe","channel":"user:u1","after":1}"#,
        ])
    }
}

/// A WebSocket server on loopback that plays the realtime protocol from a script: the first
/// connection gets event 1 and then a channel-scoped `internal` error (and stays open, saying
/// nothing more, as Kindred's server does when a subscription fails); later connections are
/// resumed with event 2.
final class ScriptedRealtimeServer: Sendable {
    private let frames = Mutex<[String]>([])
    private let connections = Atomic<Int>(0)

    /// The `subscribe` frames received, in order.
    var subscribeFrames: [String] { frames.withLock { $0 } }

    /// Runs the server while `body` runs with its port.
    func run(_ body: @Sendable (Int) async throws -> Void) async throws {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.ws("/v1/realtime") { inbound, outbound, _ in
            let number = self.connections.add(1, ordering: .relaxed).newValue
            var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
            guard case .text(let subscribe)? = try await messages.next() else { return }
            self.frames.withLock { $0.append(subscribe) }
            if number == 1 {
                try await outbound.write(.text(#"{"op":"subscribed","channel":"user:u1","seq":0}"#))
                try await outbound.write(.text(Self.event(1)))
                try await outbound.write(.text(
                    #"{"op":"error","channel":"user:u1","code":"internal","message":"the subscription failed"}"#
                ))
            } else {
                try await outbound.write(.text(#"{"op":"subscribed","channel":"user:u1","seq":1}"#))
                try await outbound.write(.text(Self.event(2)))
            }
            // Silent until the client goes away.
            while try await messages.next() != nil {}
        }
        let port = AsyncStream.makeStream(of: Int.self)
        let application = Application(
            router: Router(context: BasicWebSocketRequestContext.self),
            server: .http1WebSocketUpgrade(webSocketRouter: router),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                port.continuation.yield(channel.localAddress?.port ?? 0)
                port.continuation.finish()
            }
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await application.runService(gracefulShutdownSignals: []) }
            var ports = port.stream.makeAsyncIterator()
            let bound = try #require(await ports.next())
            defer { group.cancelAll() }
            try await body(bound)
        }
    }

    /// Event `n` of the script.
    static func event(_ n: Int) -> String {
        #"{"op":"event","channel":"user:u1","seq":\#(n),"type":"test.tick","data":{"n":\#(n)}}"#
    }
}
