@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredAPI
import KindredStore
import KindredTestSupport
import Logging
import Prometheus
import ServiceLifecycle
import Testing

/// The hub's own background work (channel pumps, LISTEN) lives inside its `run()`.
@Suite struct RealtimeHubLifecycleTests {
    /// Builds the hub of a server on `database` (migrated).
    static func hub(on database: Database) async throws -> RealtimeHub {
        try await TestApplication.serverParts(on: database).realtime
    }

    @Test("Events are pumped while the hub runs; stopping it ends subscriptions with shutting_down", arguments: Backend.all)
    func stopEndsSubscriptions(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let hub = try await Self.hub(on: database)
            let (frames, continuation) = AsyncStream.makeStream(of: String.self)
            let subscription = RealtimeSubscription(
                channel: "user:u1", identity: RealtimeIdentity(userID: "u1", sessionID: "s1", app: .closer),
                outbox: RealtimeOutbox(continuation)
            )
            try await hub.broker.attach(subscription)
            subscription.start(at: 0, sending: [])
            subscription.goLive()
            var logger = Logger(label: "kindred.test")
            logger.logLevel = .critical
            let group = ServiceGroup(configuration: .init(services: [hub], logger: logger))
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                try await RealtimeDeliveryTests.publish(hub, "user:u1", count: 1)
                var iterator = frames.makeAsyncIterator()
                let event = await iterator.next()
                #expect(event == RealtimeDeliveryTests.tick("user:u1", seq: 1, n: 0))
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                // run() has returned: the subscription got shutting_down and its stream ended.
                var rest: [String] = []
                while let frame = await iterator.next() { rest.append(frame) }
                #expect(rest == [#"{"op":"error","code":"shutting_down","message":"the server is shutting down; reconnect and resume"}"#])
                #expect(await hub.subscriptionCount == 0)
            }
        }
    }
}
