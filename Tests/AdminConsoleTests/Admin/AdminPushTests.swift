@testable import AdminConsole
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Logging
import NIOConcurrencyHelpers
import SQLKit
import Testing

/// The push page (`GET /admin/push`): deliveries and failures per transport and app over 30
/// days, pushed through the real dispatcher with a fake transport; the outbox's backlog.
@Suite struct AdminPushTests {
    /// A transport that answers from a script keyed by token, accepting the rest.
    final class FakeTransport: PushTransport {
        let script: [String: PushResult]

        init(script: [String: PushResult]) { self.script = script }

        func send(_ message: PushMessage, to device: PushDevice) async -> PushResult {
            script[device.token] ?? .accepted(providerID: "p-\(device.token.prefix(6))")
        }
    }

    static let closerPhone = String(repeating: "a1", count: 32)
    static let closerAndroid = "fcm-token-closer-android"
    static let pulsePhone = String(repeating: "c3", count: 32)
    static let pulseDead = String(repeating: "d4", count: 32)

    static func register(_ client: any TestClientProtocol, _ session: SessionBody, app: String, token: String, transport: String, device: String) async throws {
        let environment = transport == "apns" ? #","apnsEnvironment":"production""# : ""
        let response = try await client.call(
            .post, "/v1/me/push-tokens", app: app, token: session.accessToken,
            json: #"{"token":"\#(token)","transport":"\#(transport)"\#(environment),"deviceId":"\#(device)"}"#
        )
        #expect(response.status.code < 300, "\(String(buffer: response.body))")
    }

    static func note(_ userID: String, app: AppID) -> OutgoingNotification {
        OutgoingNotification(userID: userID, app: app, type: NotificationType(rawValue: "partner_answered"), title: "Hi", body: "There.")
    }

    @Test(arguments: Backend.all) func pushesThroughTheDispatcherAreCountedPerTransportAndApp(backend: Backend) async throws {
        // Noon UTC, so moving the clock two minutes never crosses into another day.
        let noon = Date(timeIntervalSince1970: TimeInterval(Int64(Date().timeIntervalSince1970) / 86_400 * 86_400 + 43_200))
        try await AdminTestApp.run(on: backend, clock: TestClock(start: noon)) { app, client in
            let closer = try await client.signUp("push-closer@example.com", app: "closer")
            let pulse = try await client.signUp("push-pulse@example.com", app: "pulse")
            try await Self.register(client, closer, app: "closer", token: Self.closerPhone, transport: "apns", device: "phone")
            try await Self.register(client, closer, app: "closer", token: Self.closerAndroid, transport: "fcm", device: "android")
            try await Self.register(client, pulse, app: "pulse", token: Self.pulsePhone, transport: "apns", device: "phone")
            try await Self.register(client, pulse, app: "pulse", token: Self.pulseDead, transport: "apns", device: "old")

            let fake = FakeTransport(script: [
                Self.closerAndroid: .failed(reason: "FCM 400 INVALID_ARGUMENT"),
                Self.pulseDead: .invalidToken(reason: "BadDeviceToken"),
            ])
            var transports = PushTransports(fallback: LogPushTransport(logger: Logger(label: "test")))
            transports.set(fake, for: .closer, kind: "apns")
            transports.set(fake, for: .closer, kind: "fcm")
            transports.set(fake, for: .pulse, kind: "apns")
            let dispatcher = NotificationDispatcher(
                database: app.database, clock: app.clock, transports: transports, logger: Logger(label: "test")
            )
            let outbox = NotificationOutbox(clock: app.clock) { _, _, _ in }
            func send(_ note: OutgoingNotification) async throws -> String {
                try await app.database.transaction { sql in try await outbox.enqueue(note, on: sql) }
            }
            // Two closer notifications: each accepted by APNs and refused by FCM.
            for _ in 0..<2 { _ = try await dispatcher.dispatch(try await send(Self.note(closer.user.id, app: .closer))) }
            // One pulse notification: the live phone accepts, the dead token is deleted and counted as pruned.
            #expect(try await dispatcher.dispatch(try await send(Self.note(pulse.user.id, app: .pulse))) == .sent(devices: 1))
            // One closer APNs delivery moved 10 days back, one 40 days back (outside the window).
            let day: Int64 = 86_400_000
            let now = app.clock.now().millisecondsSince1970
            let accepted = try await app.database.sql.raw("""
                SELECT dl.notification_id FROM kindred_notification_deliveries dl JOIN kindred_notifications n ON n.id = dl.notification_id
                WHERE n.app = 'closer' AND dl.state = 'accepted' ORDER BY dl.notification_id
                """).all().map { try $0.decode(column: "notification_id", as: String.self) }
            #expect(accepted.count == 2)
            try await app.database.sql.update("kindred_notification_deliveries").set("updated_at", to: now - 10 * day)
                .where("notification_id", .equal, accepted[0]).where("state", .equal, "accepted").run()
            let third = try await send(Self.note(closer.user.id, app: .closer))
            _ = try await dispatcher.dispatch(third)
            try await app.database.sql.update("kindred_notification_deliveries").set("updated_at", to: now - 40 * day)
                .where("notification_id", .equal, third).run()
            // The backlog: one waiting now, one deferred an hour; one the queue gave up on.
            _ = try await send(Self.note(closer.user.id, app: .closer))
            let deferred = try await send(Self.note(pulse.user.id, app: .pulse))
            try await app.database.sql.update("kindred_notifications").set("deliver_after", to: now + 3_600_000)
                .where("id", .equal, deferred).run()
            let failed = try await send(Self.note(closer.user.id, app: .closer))
            try await dispatcher.markFailed(failed, reason: "gave up")
            app.clock.advance(by: .seconds(120))

            let browser = try await client.adminLogIn()
            let page = try await client.adminGet("/admin/push", cookie: browser.cookie)
            #expect(page.status == .ok)
            let text = String(buffer: page.body)
            #expect(text.contains(#"<a href="/admin/push" aria-current="page">Push</a>"#))
            #expect(text.contains(AdminOverviewTests.stat("Waiting to send", "2")))
            #expect(text.contains(AdminOverviewTests.stat("Deferred (quiet hours)", "1")))
            #expect(text.contains(#"<dd id="oldest">2 min</dd>"#))
            #expect(text.contains(AdminOverviewTests.stat("closer · gave up", "1")))

            let apns = try #require(Self.section(text, from: #"data-transport="apns">"#, to: "</article>"))
            #expect(apns.contains(AdminOverviewTests.stat("Delivered in 30 days", "3")))
            #expect(apns.contains(AdminOverviewTests.stat("Failed in 30 days", "0")))
            #expect(apns.contains(#"aria-label="Delivered in 30 days, last 30 days: lowest 0, highest 2, today 2""#))
            #expect(apns.contains(AdminOverviewTests.stat("Tokens pruned in 30 days", "1")))
            #expect(apns.contains(#"aria-label="Tokens pruned in 30 days, last 30 days: lowest 0, highest 1, today 1""#))
            let fcm = try #require(Self.section(text, from: #"data-transport="fcm">"#, to: "</article>"))
            #expect(fcm.contains(AdminOverviewTests.stat("Delivered in 30 days", "0")))
            #expect(fcm.contains(AdminOverviewTests.stat("Failed in 30 days", "2")))
            #expect(fcm.contains(AdminOverviewTests.stat("Tokens pruned in 30 days", "0")))

            #expect(text.contains(#"<tr data-app="closer" data-transport="apns"><td>closer</td><td class="mono">apns</td><td class="num">2</td><td class="num">1</td><td class="num">0</td><td class="num">0</td><td class="num">0</td><td class="num">0</td></tr>"#))
            #expect(text.contains(#"<tr data-app="closer" data-transport="fcm"><td>closer</td><td class="mono">fcm</td><td class="num">0</td><td class="num">0</td><td class="num">2</td><td class="num">2</td><td class="num">0</td><td class="num">0</td></tr>"#))
            #expect(text.contains(#"<tr data-app="pulse" data-transport="apns"><td>pulse</td><td class="mono">apns</td><td class="num">1</td><td class="num">1</td><td class="num">0</td><td class="num">0</td><td class="num">1</td><td class="num">1</td></tr>"#))
            #expect(!text.contains(#"data-transport="removed token""#))
        }
    }

    @Test func anEmptyServerSaysWhatToDoNext() async throws {
        try await AdminTestApp.run { _, client in
            let browser = try await client.adminLogIn()
            let text = String(buffer: try await client.adminGet("/admin/push", cookie: browser.cookie).body)
            #expect(text.contains("No push was delivered in the last 30 days."))
            #expect(text.contains(AdminOverviewTests.stat("Waiting to send", "0")))
            #expect(text.contains(#"<dd id="oldest">—</dd>"#))
        }
    }

    @Test func thePageIsRefusedToNonOperators() async throws {
        try await AdminTestApp.run { _, client in
            let user = try await client.signUp("someone@example.com", app: "closer")
            for headers: HTTPFields in [[:], [.authorization: "Bearer \(user.accessToken)"]] {
                let page = try await client.adminGet("/admin/push", headers: headers)
                #expect(page.status == .seeOther)
                #expect(page.headers[.location] == "/admin/login")
            }
            let forged = try await client.adminGet("/admin/push", cookie: "not-a-session")
            #expect(forged.status == .seeOther)
            #expect(!String(buffer: forged.body).contains("Waiting to send"))
        }
    }

    /// The text of `text` from the first `from` to the next `to`.
    static func section(_ text: String, from: String, to: String) -> String? {
        guard let start = text.range(of: from), let end = text.range(of: to, range: start.upperBound..<text.endIndex) else { return nil }
        return String(text[start.lowerBound..<end.lowerBound])
    }
}
