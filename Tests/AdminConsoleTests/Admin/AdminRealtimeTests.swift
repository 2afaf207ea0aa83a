@testable import AdminConsole
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Testing

/// The realtime page (`GET /admin/realtime`): this replica's connections, subscriptions, channels
/// (the busiest by subscribers) and events per minute over the last hour, read from the hub.
@Suite struct AdminRealtimeTests {
    /// A connection's identity in the hub.
    static func identity(_ user: String) -> RealtimeIdentity {
        RealtimeIdentity(userID: user, sessionID: "s-\(user)", app: .closer)
    }

    /// An outbox whose frames nobody reads (unbounded, so nothing is dropped).
    static func outbox() -> RealtimeOutbox {
        RealtimeOutbox(AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded).continuation)
    }

    /// Publishes `count` events on `channel` through the hub's publisher, each in its own transaction.
    static func publish(_ hub: RealtimeHub, on channel: String, count: Int) async throws {
        let parsed = try RealtimeChannel(channel)
        for index in 0..<count {
            try await hub.publisher.transaction { transaction in
                try await hub.publisher.publish(channel: parsed, type: "test.event", json: #"{"n":\#(index)}"#, on: transaction)
            }
        }
    }

    @Test(arguments: Backend.all) func thePageShowsConnectionsChannelsAndEventsPerMinute(backend: Backend) async throws {
        try await AdminTestApp.run(on: backend) { app, client in
            let browser = try await client.adminLogIn()
            let empty = String(buffer: try await client.adminGet("/admin/realtime", cookie: browser.cookie).body)
            #expect(empty.contains(#"<a href="/admin/realtime" aria-current="page">Realtime</a>"#))
            #expect(empty.contains(AdminOverviewTests.stat("Open connections", "0")))
            #expect(empty.contains("No channel has a subscriber on this replica."))
            #expect(empty.contains("These figures are this replica's"))

            let hub = app.realtime
            let registrations = ["u1", "u2"].map { hub.sessions.add(Self.identity($0), outbox: Self.outbox()) }
            // couple:busy has three subscribers, user:u1 one; chat:quiet gets events but no subscriber.
            for user in ["u1", "u2", "u3"] {
                try await hub.broker.attach(RealtimeSubscription(channel: "couple:busy", identity: Self.identity(user), outbox: Self.outbox()))
            }
            try await hub.broker.attach(RealtimeSubscription(channel: "user:u1", identity: Self.identity("u1"), outbox: Self.outbox()))
            try await Self.publish(hub, on: "couple:busy", count: 3)
            try await Self.publish(hub, on: "chat:quiet", count: 2)
            app.clock.advance(by: .seconds(120))
            try await Self.publish(hub, on: "couple:busy", count: 1)

            let text = String(buffer: try await client.adminGet("/admin/realtime", cookie: browser.cookie).body)
            #expect(text.contains(AdminOverviewTests.stat("Open connections", "2")))
            #expect(text.contains(AdminOverviewTests.stat("Subscriptions", "4")))
            #expect(text.contains(AdminOverviewTests.stat("Channels with subscribers", "2")))
            #expect(text.contains(AdminOverviewTests.stat("Published here, last hour", "6")))
            #expect(text.contains(AdminOverviewTests.stat("Delivered here, last hour", "4")))
            #expect(text.contains(AdminOverviewTests.stat("Published this minute", "1")))
            #expect(text.contains(AdminOverviewTests.stat("Stored by every replica, last hour", "6")))
            #expect(text.contains(#"aria-label="Published here, last hour, last 60 minutes: lowest 0, highest 5, this minute 1""#))
            #expect(text.contains(#"<tr data-channel="couple:busy"><td class="mono">couple:busy</td><td class="num">3</td></tr>"#))
            let busy = try #require(text.range(of: #"data-channel="couple:busy""#))
            let single = try #require(text.range(of: #"data-channel="user:u1""#))
            #expect(busy.lowerBound < single.lowerBound)
            #expect(!text.contains(#"data-channel="chat:quiet""#))

            // An hour later the per-minute counts have rolled out; the connections are still open.
            app.clock.advance(by: .seconds(61 * 60))
            // The console session has been idle past its 30 minutes: log in again.
            let again = try await client.adminLogIn()
            let later = String(buffer: try await client.adminGet("/admin/realtime", cookie: again.cookie).body)
            #expect(later.contains(AdminOverviewTests.stat("Published here, last hour", "0")))
            #expect(later.contains(AdminOverviewTests.stat("Stored by every replica, last hour", "0")))
            #expect(later.contains(AdminOverviewTests.stat("Open connections", "2")))
            registrations.forEach(hub.sessions.remove)
            #expect(hub.connectionCount == 0)
        }
    }

    /// The figure of the stat `label` on a realtime page (digits and separators only).
    static func figure(_ label: String, in text: String) throws -> Int {
        let start = try #require(text.range(of: #"<span class="stat-label">\#(label)</span> <span class="stat-value">"#))
        let end = try #require(text[start.upperBound...].range(of: "</span>"))
        return try #require(Int(text[start.upperBound..<end.lowerBound].filter(\.isNumber)))
    }

    @Test(arguments: Backend.all) func aRealWebSocketSubscriptionAndItsEventsShowOnThePage(backend: Backend) async throws {
        try await AdminTestApp.run(on: backend, webSockets: true) { app, client in
            let port = try #require(app.port)
            let browser = try await client.adminLogIn()
            let user = try await client.signUp("socket-watcher@example.com", app: "closer")
            let channel = "user:\(user.user.id)"
            @Sendable func page() async throws -> String {
                String(buffer: try await client.adminGet("/admin/realtime", cookie: browser.cookie).body)
            }
            #expect(try await page().contains(Self.stat("Open connections", "0")))
            try await RealtimeProbe.connect(port: port, token: user.accessToken) { probe in
                #expect(try await probe.subscribe(channel) == #"{"op":"subscribed","channel":"\#(channel)","seq":0}"#)
                let before = try await page()
                #expect(before.contains(Self.stat("Open connections", "1")))
                #expect(before.contains(Self.stat("Subscriptions", "1")))
                #expect(before.contains(Self.stat("Channels with subscribers", "1")))
                #expect(before.contains(#"<tr data-channel="\#(channel)"><td class="mono">\#(channel)</td><td class="num">1</td></tr>"#))
                let published = try Self.figure("Published this minute", in: before)
                let delivered = try Self.figure("Delivered here, last hour", in: before)

                // A profile change publishes `profile.updated` on the user's channel; the socket gets it.
                let response = try await client.call(.patch, "/v1/me", token: user.accessToken, json: #"{"displayName":"Watcher"}"#)
                #expect(response.status == .ok)
                #expect(try await probe.next().hasPrefix(#"{"op":"event","channel":"\#(channel)","seq":1,"type":"profile.updated""#))
                let after = try await page()
                #expect(try Self.figure("Published this minute", in: after) == published + 1)
                #expect(try Self.figure("Delivered here, last hour", in: after) == delivered + 1)
                #expect(after.contains(Self.stat("Open connections", "1")))
            }
            // Once the client has hung up, the page no longer counts it.
            var closed = ""
            for _ in 0..<200 {
                closed = try await page()
                if closed.contains(Self.stat("Open connections", "0")) { break }
                try await Task.sleep(for: .milliseconds(25))
            }
            #expect(closed.contains(Self.stat("Open connections", "0")))
            #expect(closed.contains(Self.stat("Subscriptions", "0")))
            #expect(closed.contains("No channel has a subscriber on this replica."))
        }
    }

    /// A stat as the page renders it.
    static func stat(_ label: String, _ value: String) -> String { AdminOverviewTests.stat(label, value) }

    @Test func thePageIsRefusedToNonOperators() async throws {
        try await AdminTestApp.run { _, client in
            let user = try await client.signUp("realtime-visitor@example.com", app: "closer")
            for headers: HTTPFields in [[:], [.authorization: "Bearer \(user.accessToken)"]] {
                let page = try await client.adminGet("/admin/realtime", headers: headers)
                #expect(page.status == .seeOther)
                #expect(page.headers[.location] == "/admin/login")
            }
        }
    }

    @Test func minuteCountsKeepTheLastHourPerKey() {
        let clock = TestClock(start: Date(timeIntervalSince1970: 1_800_000_000))
        let counts = MinuteCounts(clock: clock, minutes: 3)
        counts.add(2, to: "a")
        clock.advance(by: .seconds(60))
        counts.add(to: "a")
        counts.add(5, to: "b")
        #expect(counts.series("a") == [0, 2, 1])
        #expect(counts.series("b") == [0, 0, 5])
        #expect(counts.series("none") == [0, 0, 0])
        clock.advance(by: .seconds(120))
        counts.add(to: "a")
        // The slot of the first minute is reused: its old count is gone.
        #expect(counts.series("a") == [1, 0, 1])
        clock.advance(by: .seconds(600))
        #expect(counts.series("a") == [0, 0, 0])
        #expect(counts.keys == ["a", "b"])
    }
}
