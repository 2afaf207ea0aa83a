import Hummingbird
import HummingbirdWebSocket
import Synchronization

/// The baseline: a bare hummingbird-websocket server that broadcasts each message to every
/// connection through the same per-connection queue-and-writer shape Kindred uses, with no
/// database, no authentication and no protocol.
final class BareBroadcastServer: Sendable {
    private let connections = Mutex<[Int: AsyncStream<String>.Continuation]>([:])
    private let nextID = Atomic<Int>(0)

    /// The application on `127.0.0.1:port`.
    func application(port: Int) -> some ApplicationProtocol {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.ws("/ws") { inbound, outbound, _ in
            let (frames, continuation) = AsyncStream.makeStream(of: String.self)
            let id = self.nextID.add(1, ordering: .relaxed).newValue
            self.connections.withLock { $0[id] = continuation }
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await frame in frames { try? await outbound.write(.text(frame)) }
                }
                group.addTask {
                    do { for try await _ in inbound {} } catch {}
                    continuation.finish()
                }
                await group.waitForAll()
            }
            _ = self.connections.withLock { $0.removeValue(forKey: id) }
        }
        return Application(
            router: Router(context: BasicWebSocketRequestContext.self),
            server: .http1WebSocketUpgrade(webSocketRouter: router, configuration: .init(ws: .init(autoPing: .disabled))),
            configuration: .init(address: .hostname("127.0.0.1", port: port))
        )
    }

    /// The number of open connections.
    var count: Int { connections.withLock { $0.count } }

    /// Queues `frame` for every connection.
    func broadcast(_ frame: String) {
        for continuation in connections.withLock({ Array($0.values) }) { continuation.yield(frame) }
    }
}
