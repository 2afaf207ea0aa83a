@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import NIOConcurrencyHelpers
import SQLKit
import Testing

/// The per-user notification queue and its dispatcher, with scripted transports.
@Suite struct NotificationDispatcherTests {
    /// A transport that records what it sent and answers from a script keyed by token.
    final class ScriptedTransport: PushTransport {
        let sent = NIOLockedValueBox<[(PushMessage, PushDevice)]>([])
        let script = NIOLockedValueBox<[String: PushResult]>([:])

        func send(_ message: PushMessage, to device: PushDevice) async -> PushResult {
            sent.withLockedValue { $0.append((message, device)) }
            return script.withLockedValue { $0[device.token] } ?? .accepted(providerID: "p-\(device.token.prefix(6))")
        }

        var sentTokens: [String] { sent.withLockedValue { $0.map(\.1.token) } }
    }

    static let phone = String(repeating: "a1", count: 32)
    static let tablet = String(repeating: "b2", count: 32)

    /// An account with two devices, a center that records what it queued, and a dispatcher.
    static func setUp(
        _ application: TestApplication, _ client: any TestClientProtocol, transport: ScriptedTransport
    ) async throws -> (SessionBody, NotificationOutbox, NotificationDispatcher, NIOLockedValueBox<[String]>) {
        let session = try await client.anonymous()
        for (token, device) in [(phone, "phone"), (tablet, "tablet")] {
            _ = try await client.call(
                .post, "/v1/me/push-tokens", token: session.accessToken,
                json: #"{"token":"\#(token)","transport":"apns","apnsEnvironment":"production","deviceId":"\#(device)"}"#
            )
        }
        let queued = NIOLockedValueBox<[String]>([])
        let center = NotificationOutbox(clock: application.clock) { id, _, _ in queued.withLockedValue { $0.append(id) } }
        var transports = PushTransports(fallback: LogPushTransport(logger: .init(label: "test")))
        transports.set(transport, for: .closer, kind: "apns")
        let dispatcher = NotificationDispatcher(
            database: application.database, clock: application.clock, transports: transports, logger: .init(label: "test")
        )
        return (session, center, dispatcher, queued)
    }

    static func note(_ userID: String, type: NotificationType = NotificationType(rawValue: "partner_answered")) -> OutgoingNotification {
        OutgoingNotification(userID: userID, app: .closer, type: type, title: "Ada answered", body: "Your turn.", data: ["q": "1"])
    }

    static func state(_ id: String, _ database: Database) async throws -> String? {
        try await database.sql.select().column("state").from("kindred_notifications").where("id", .equal, id)
            .first()?.decode(column: "state", as: String.self)
    }

    @Test(arguments: Backend.all)
    func aNotificationReachesEveryDeviceOnceEvenAcrossRetries(backend: Backend) async throws {
        let transport = ScriptedTransport()
        try await TestApplication.run(on: backend) { application, client in
            let (session, center, dispatcher, queued) = try await Self.setUp(application, client, transport: transport)
            let id = try await application.database.transaction { sql in
                try await center.enqueue(Self.note(session.user.id), on: sql)
            }
            #expect(queued.withLockedValue { $0 } == [id])

            // The tablet's provider is briefly unavailable: the phone is served, the tablet retried.
            transport.script.withLockedValue { $0[Self.tablet] = .retry(reason: "APNs 503", retryAfter: .seconds(5)) }
            #expect(try await dispatcher.dispatch(id) == .retry(reason: "APNs 503", retryAfter: .seconds(5)))
            transport.script.withLockedValue { $0[Self.tablet] = nil }
            #expect(try await dispatcher.dispatch(id) == .sent(devices: 2))
            // The phone got it once; the tablet twice (the failed try and the retry).
            #expect(transport.sentTokens.filter { $0 == Self.phone }.count == 1)
            #expect(try await Self.state(id, application.database) == "sent")
            // Every send of one notification carries the same apns-id and collapse id.
            let messages = transport.sent.withLockedValue { $0.map(\.0) }
            #expect(Set(messages.map(\.id)) == [id])
            #expect(Set(messages.map(\.collapseID)) == [id])
            // Dispatching a sent notification again does nothing.
            #expect(try await dispatcher.dispatch(id) == .skipped)
            #expect(transport.sent.withLockedValue { $0.count } == 3)
        }
    }

    @Test func aTokenTheProviderRejectsIsDeleted() async throws {
        let transport = ScriptedTransport()
        try await TestApplication.run(on: .sqlite) { application, client in
            let (session, center, dispatcher, _) = try await Self.setUp(application, client, transport: transport)
            transport.script.withLockedValue { $0[Self.phone] = .invalidToken(reason: "Unregistered") }
            let id = try await application.database.transaction { try await center.enqueue(Self.note(session.user.id), on: $0) }
            #expect(try await dispatcher.dispatch(id) == .sent(devices: 1))
            let left = try await application.database.sql.select().column("token").from("kindred_push_tokens").all()
                .map { try $0.decode(column: "token", as: String.self) }
            #expect(left == [Self.tablet])
        }
    }

    @Test func aNotificationRolledBackWithItsTransactionNeverExists() async throws {
        let transport = ScriptedTransport()
        try await TestApplication.run(on: .sqlite) { application, client in
            let (session, center, _, _) = try await Self.setUp(application, client, transport: transport)
            struct Abort: Error {}
            await #expect(throws: Abort.self) {
                try await application.database.transaction { sql in
                    try await center.enqueue(Self.note(session.user.id), on: sql)
                    throw Abort()
                }
            }
            #expect(try await application.database.sql.count("kindred_notifications") == 0)
        }
    }

    @Test func quietHoursDeferAllButCriticalTypesAndOptOutsAreSkipped() async throws {
        let transport = ScriptedTransport()
        // 2026-03-07 23:30 in Chicago (CST) = 05:30Z on the 8th, the night clocks spring forward.
        let clock = TestClock(start: ISO8601DateFormatter().date(from: "2026-03-08T05:30:00Z")!)
        try await TestApplication.run(on: .sqlite, clock: clock) { application, client in
            let (session, center, dispatcher, _) = try await Self.setUp(application, client, transport: transport)
            _ = try await client.call(
                .put, "/v1/me/notification-settings", token: session.accessToken,
                json: #"{"timeZone":"America/Chicago","quietHours":{"start":"22:00","end":"07:00"},"optOut":["streak_reminder"]}"#
            )
            let ordinary = try await application.database.transaction { try await center.enqueue(Self.note(session.user.id), on: $0) }
            let end = ISO8601DateFormatter().date(from: "2026-03-08T12:00:00Z")!  // 07:00 CDT
            let deliverAfter = try await application.database.sql.select().column("deliver_after").from("kindred_notifications")
                .where("id", .equal, ordinary).first()?.decode(column: "deliver_after", as: Int64.self)
            #expect(deliverAfter == Int64(end.timeIntervalSince1970 * 1000))
            #expect(try await dispatcher.dispatch(ordinary) == .deferred(until: end))
            #expect(transport.sentTokens.isEmpty)

            let security = try await application.database.transaction {
                try await center.enqueue(Self.note(session.user.id, type: .accountSecurity), on: $0)
            }
            #expect(try await dispatcher.dispatch(security) == .sent(devices: 2))

            let reminder = try await application.database.transaction {
                try await center.enqueue(Self.note(session.user.id, type: NotificationType(rawValue: "streak_reminder")), on: $0)
            }
            #expect(try await Self.state(reminder, application.database) == "skipped")

            clock.set(end)
            #expect(try await dispatcher.dispatch(ordinary) == .sent(devices: 2))
            #expect(try await Self.state(ordinary, application.database) == "sent")
        }
    }
}

extension NotificationDispatcherTests {
    /// A lane of the queue dispatched as one batch comes to what dispatching each item alone
    /// would: sent to every device, opted out, deferred to the quiet window's end (a new item),
    /// gone, and a provider's temporary failure on the last attempt (marked failed, left for
    /// the worker to record) — with every item but the failed one completed in the batch's
    /// transaction.
    @Test(arguments: Backend.all)
    func aLaneIsDispatchedInOneTransactionAsEachItemAloneWouldBe(backend: Backend) async throws {
        let transport = ScriptedTransport()
        // 2026-03-07 23:30 in Chicago (CST): inside a 22:00–07:00 quiet window.
        let clock = TestClock(start: ISO8601DateFormatter().date(from: "2026-03-08T05:30:00Z")!)
        try await TestApplication.run(on: backend, clock: clock) { application, client in
            let (ada, center, dispatcher, _) = try await Self.setUp(application, client, transport: transport)
            let flaky = String(repeating: "c3", count: 32)
            let bob = try await client.anonymous()
            _ = try await client.call(
                .post, "/v1/me/push-tokens", token: bob.accessToken,
                json: #"{"token":"\#(flaky)","transport":"apns","apnsEnvironment":"production","deviceId":"bob"}"#
            )
            transport.script.withLockedValue { $0[flaky] = .retry(reason: "APNs 503", retryAfter: nil) }
            let cleo = try await client.anonymous()
            let quiet = try await client.call(
                .put, "/v1/me/notification-settings", token: cleo.accessToken,
                json: #"{"timeZone":"America/Chicago","quietHours":{"start":"22:00","end":"07:00"},"optOut":[]}"#
            )
            #expect(quiet.status == .ok)
            let reminder = NotificationType(rawValue: "streak_reminder")
            let (sent, optedOut, retried, deferred) = try await application.database.transaction { sql in
                (try await center.enqueue(Self.note(ada.user.id), on: sql),
                 try await center.enqueue(Self.note(ada.user.id, type: reminder), on: sql),
                 try await center.enqueue(Self.note(bob.user.id), on: sql),
                 try await center.enqueue(Self.note(cleo.user.id), on: sql))
            }
            // Ada opts out of reminders after this one was queued: the dispatcher skips it.
            _ = try await client.call(
                .put, "/v1/me/notification-settings", token: ada.accessToken, json: #"{"optOut":["streak_reminder"]}"#
            )
            let queue = application.platform.queue
            let name = NotificationsQueue.name
            try await application.database.transaction { sql in
                for id in [sent, optedOut, retried, deferred, "gone"] { try await queue.enqueue(queue: name, payload: id, on: sql) }
            }
            let items = try await queue.claim(queue: name, limit: 16, lease: .seconds(120), maxAttempts: 8)
            #expect(items.count == 5)

            let failures = try await dispatcher.dispatch(batch: items, queue: queue, policy: RetryPolicy(maxAttempts: 1))

            let retriedItem = try #require(items.first { $0.payload == retried })
            #expect(failures == [retriedItem.id: "APNs 503"])
            #expect(try await Self.state(sent, application.database) == "sent")
            #expect(try await Self.state(optedOut, application.database) == "skipped")
            #expect(try await Self.state(retried, application.database) == "failed")
            #expect(try await Self.state(deferred, application.database) == "queued")
            #expect(Set(transport.sentTokens) == [Self.phone, Self.tablet, flaky])
            #expect(transport.sentTokens.count == 3)
            let accepted = try await application.database.sql.select().column("token_id").from("kindred_notification_deliveries")
                .where("notification_id", .equal, sent).where("state", .equal, "accepted").all()
            #expect(accepted.count == 2)
            // Left in the queue: the failed item (its attempt is the worker's to record) and the
            // deferred notification's new item, due at 07:00 CDT; the other four were completed.
            let left = try await application.database.sql.select().columns("id", "payload", "run_at").from("kindred_queue_items")
                .where("queue", .equal, name).all()
            let end = ISO8601DateFormatter().date(from: "2026-03-08T12:00:00Z")!
            let byPayload = Dictionary(uniqueKeysWithValues: try left.map {
                (try $0.decode(column: "payload", as: String.self), (try $0.decode(column: "id", as: String.self), try $0.decode(column: "run_at", as: Int64.self)))
            })
            #expect(Set(byPayload.keys) == [retried, deferred])
            #expect(byPayload[retried]?.0 == retriedItem.id)
            #expect(byPayload[deferred]?.1 == end.millisecondsSince1970)
            #expect(try await queue.fail(retriedItem, error: "APNs 503", policy: RetryPolicy(maxAttempts: 1)) == .deadLettered)

            // At the window's end the deferred item is due, and the worker's batch sends it.
            clock.set(end)
            #expect(await application.platform.worker.processAvailable() == 1)
            #expect(try await Self.state(deferred, application.database) == "sent")
        }
    }
}

/// The whole path: an account change queues a security notification in its transaction, the
/// work queue's worker hands it to the dispatcher, the transport delivers it to every device.
@Suite struct NotificationPipelineTests {
    @Test(arguments: Backend.all)
    func addingASignInMethodNotifiesEveryDeviceThroughTheQueue(backend: Backend) async throws {
        let transport = NotificationDispatcherTests.ScriptedTransport()
        var transports = PushTransports(fallback: LogPushTransport(logger: .init(label: "test")))
        transports.set(transport, for: .closer, kind: "apns")
        transports.set(transport, for: .closer, kind: "fcm")
        try await TestApplication.run(on: backend, identity: FakeIdentityVerifier(), pushTransports: transports) { application, client in
            let session = try await client.signUp("secure@example.com")
            _ = try await client.call(
                .post, "/v1/me/push-tokens", token: session.accessToken,
                json: #"{"token":"\#(NotificationDispatcherTests.phone)","transport":"apns","apnsEnvironment":"sandbox","deviceId":"phone"}"#
            )
            _ = try await client.call(
                .post, "/v1/me/push-tokens", token: session.accessToken,
                json: #"{"token":"fcm-token-1","transport":"fcm","deviceId":"pixel"}"#
            )
            let link = try await client.call(.post, "/v1/me/credentials/apple", token: session.accessToken, json: #"{"idToken":"apple|sub-9|"}"#)
            #expect(link.status == .ok)
            #expect(transport.sentTokens.isEmpty)  // queued, not sent inline

            #expect(await application.platform.worker.processAvailable() == 1)
            let sent = transport.sent.withLockedValue { $0 }
            #expect(Set(sent.map(\.1.token)) == [NotificationDispatcherTests.phone, "fcm-token-1"])
            #expect(sent.allSatisfy { $0.0.type == "account_security" && $0.0.data["provider"] == "apple" })
            let states = try await application.database.sql.select().column("state").from("kindred_notifications").all()
                .map { try $0.decode(column: "state", as: String.self) }
            #expect(states == ["sent"])

            // An anonymous account upgrading is not security news: nothing is queued.
            let anonymous = try await client.anonymous()
            _ = try await client.call(
                .post, "/v1/me/credentials/password", token: anonymous.accessToken,
                json: #"{"email":"upgrade@example.com","password":"long enough"}"#
            )
            #expect(try await application.database.sql.count("kindred_notifications") == 1)
        }
    }
}
