import CloserKit
import Foundation
import KindredClient
import KindredTestSupport
import Testing

/// Closer's `EntitlementChecker` against a live `kindred serve` that accepts RevenueCat webhooks
/// for Closer: fresh answers, a realtime change, the remembered answer within and past its
/// expiry, and failing closed without one.
@Suite(.serialized) struct EntitlementCheckerLiveTests {
    static let hook = "Bearer closer-kit-test-hook"
    static let day: Int64 = 86_400
    static var nowSeconds: Int64 { Int64(Date().timeIntervalSince1970) }

    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    func server() async throws -> LiveServer {
        try await LiveServer(environment: [
            "KINDRED_REVENUECAT_BASE_URL": "http://127.0.0.1:9",
            "KINDRED_REVENUECAT_PROJECTS": "proj1=closer",
            "KINDRED_REVENUECAT_API_KEY": "sk_rc_closer_test",
            "KINDRED_REVENUECAT_WEBHOOK_AUTH": Self.hook,
            "KINDRED_REVENUECAT_MAX_EVENT_AGE_SECONDS": "0",
        ])
    }

    /// A signed-up Closer account in its own profile folder; returns its profile and user id.
    func account(_ name: String, _ server: LiveServer) async throws -> (profile: URL, userId: String) {
        let profile = folder.url.appendingPathComponent(name)
        let session = KindredSession(serverURL: server.url, app: .closer, store: FileTokenStore(profileDirectory: profile))
        let signedIn = try await session.signUp(email: "\(name)@example.com", password: "correct horse battery staple")
        return (profile, signedIn.user.id)
    }

    /// A checker on `profile`; `offline` gives it no network; `now` is its clock.
    func checker(_ profile: URL, _ server: LiveServer, offline: Bool = false,
                 now: @escaping @Sendable () -> Date = { Date() }) -> EntitlementChecker {
        let store = FileTokenStore(profileDirectory: profile)
        let session = offline
            ? KindredSession(serverURL: server.url, app: .closer, store: store, transport: OfflineTransport())
            : KindredSession(serverURL: server.url, app: .closer, store: store)
        return EntitlementChecker(session: session, store: EntitlementStore(profileDirectory: profile), now: now)
    }

    /// Posts a RevenueCat purchase of Closer premium for `user`, ending at `expiresAt`.
    func purchase(_ server: LiveServer, user: String, id: String, expiresAt: Int64) throws -> String {
        let event: [String: Any] = [
            "id": id, "type": "INITIAL_PURCHASE", "event_timestamp_ms": (Self.nowSeconds - 5) * 1000,
            "product_id": "closer_premium_monthly", "period_type": "NORMAL", "environment": "PRODUCTION",
            "original_transaction_id": "otx-\(id)", "transaction_id": "tx-\(id)", "store": "APP_STORE",
            "entitlement_ids": ["premium"], "app_id": "app1234", "app_user_id": user, "original_app_user_id": user,
            "expiration_at_ms": expiresAt * 1000,
        ]
        let body = String(
            decoding: try JSONSerialization.data(withJSONObject: ["api_version": "1.0", "event": event], options: [.sortedKeys]),
            as: UTF8.self
        )
        let head = "POST /v1/webhooks/revenuecat HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: \(Self.hook)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        return try LoopbackHTTP.exchange(port: server.port, head: head, body: body)
    }

    @Test(.timeLimit(.minutes(3)))
    func aRealtimeChangeFlipsItAndTheRememberedAnswerHoldsOnlyUntilItsExpiry() async throws {
        let server = try await server()
        let (profile, user) = try await account("payer", server)
        let (neverProfile, _) = try await account("never", server)

        // Fresh from the server: not premium; then a purchase arrives over realtime.
        var changes = checker(profile, server).changes().makeAsyncIterator()
        #expect(await changes.next() == PremiumStatus(isPremium: false, expiresAt: nil, source: .server))
        let ends = Self.nowSeconds + 10 * Self.day
        let hook = try purchase(server, user: user, id: "rc-closer", expiresAt: ends)
        #expect(hook.hasPrefix("HTTP/1.1 200 OK"), "\(hook)")
        let flipped = await changes.next()
        #expect(flipped == PremiumStatus(isPremium: true, expiresAt: Date(timeIntervalSince1970: TimeInterval(ends)), source: .server))
        #expect(await checker(neverProfile, server).check() == PremiumStatus(isPremium: false, expiresAt: nil, source: .server))
        #expect(await server.stop().status == 0)

        // Offline, within the expiry: the remembered answer.
        let cached = await checker(profile, server, offline: true).check()
        #expect(cached.isPremium)
        #expect(cached.source == .cache)
        #expect(cached.expiresAt == Date(timeIntervalSince1970: TimeInterval(ends)))
        #expect(cached.problem == "cannot reach the server: the network is unreachable")
        // Offline, past the expiry on the device's clock: closed.
        let later = checker(profile, server, offline: true, now: { Date(timeIntervalSince1970: TimeInterval(ends + 60)) })
        #expect(await later.check() == PremiumStatus(
            isPremium: false, expiresAt: nil, source: .failure, problem: "cannot reach the server: the network is unreachable"
        ))
        // Offline with a remembered "not premium": closed.
        #expect(await checker(neverProfile, server, offline: true).check().isPremium == false)
        // An error with nothing remembered (a file that does not decode): closed.
        try Data("{not json".utf8).write(to: profile.appendingPathComponent(EntitlementStore.fileName))
        let broken = await checker(profile, server, offline: true).check()
        #expect(broken.isPremium == false)
        #expect(broken.source == .failure)
    }
}
