import Foundation
import KindredAPI
import KindredClient
import KindredTestSupport
import OpenAPIAsyncHTTPClient
import PulseKit

/// A live `kindred serve` whose billing reads RevenueCat from a `FakeRevenueCat` (project
/// `proj1` sells Pulse) and accepts RevenueCat webhooks with `hookAuthorization`.
struct PulseServer: Sendable {
    static let hookAuthorization = "Bearer pulse-kit-test-hook"

    let server: LiveServer
    let fake: FakeRevenueCat

    /// Runs `body` with a fresh server and fake; stops the server afterwards.
    static func run(_ body: @escaping @Sendable (PulseServer) async throws -> Void) async throws {
        let fake = FakeRevenueCat()
        try await fake.run { base in
            let server = try await LiveServer(environment: [
                "KINDRED_REVENUECAT_BASE_URL": base.absoluteString,
                "KINDRED_REVENUECAT_PROJECTS": "proj1=pulse",
                "KINDRED_REVENUECAT_API_KEY": "sk_rc_pulse_test",
                "KINDRED_REVENUECAT_WEBHOOK_AUTH": hookAuthorization,
                // The tests post events dated days back (a subscription that ended two days ago)
                // to set up history; the replay bound has its own test (RevenueCatWebhookAuthTests).
                "KINDRED_REVENUECAT_MAX_EVENT_AGE_SECONDS": "0",
            ])
            do {
                try await body(PulseServer(server: server, fake: fake))
            } catch {
                _ = await server.stop()
                throw error
            }
            _ = await server.stop()
        }
    }

    /// A signed-up Pulse account on a new profile folder, and its checker. Its requests give up
    /// after 3 s (AsyncHTTPClient keeps retrying a refused connection until the request's
    /// deadline, one minute by default: the offline tests would wait that long per call).
    func subscriber(_ folder: URL, email: String) async throws -> (client: EntitlementClient, userID: String) {
        let session = KindredSession(
            serverURL: server.url, app: .pulse, store: FileTokenStore(profileDirectory: folder),
            transport: AsyncHTTPClientTransport(configuration: .init(timeout: .seconds(3)))
        )
        let signedIn = try await session.signUp(email: email, password: "correct horse battery staple")
        return (EntitlementClient(session: session, cache: FileAccessCache(profileDirectory: folder)), signedIn.user.id)
    }

    /// Delivers a RevenueCat webhook event for `user` (a purchase by default) and returns the
    /// whole HTTP response.
    func webhook(user: String, id: String, type: String = "INITIAL_PURCHASE", expiresAt: Int64, eventAt: Int64) throws -> String {
        let event: [String: Any] = [
            "id": id, "type": type, "event_timestamp_ms": eventAt * 1000, "product_id": "pc_1m",
            "period_type": "NORMAL", "environment": "PRODUCTION", "original_transaction_id": "otx-\(id)",
            "transaction_id": "tx-\(id)", "store": "APP_STORE", "entitlement_ids": ["plus"], "app_id": "app1234",
            "app_user_id": user, "original_app_user_id": user, "expiration_at_ms": expiresAt * 1000,
        ]
        let body = String(
            decoding: try JSONSerialization.data(withJSONObject: ["api_version": "1.0", "event": event], options: [.sortedKeys]),
            as: UTF8.self
        )
        let head = "POST /v1/webhooks/revenuecat HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: \(Self.hookAuthorization)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        return try LoopbackHTTP.exchange(port: server.port, head: head, body: body)
    }

    /// Waits (up to `timeout`) until `check` holds.
    static func eventually(timeout: Duration = .seconds(20), _ check: () async -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if await check() { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return await check()
    }
}

/// Unix seconds now.
var nowSeconds: Int64 { Int64(Date().timeIntervalSince1970) }
