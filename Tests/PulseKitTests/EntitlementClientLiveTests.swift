import Foundation
import KindredClient
import KindredTestSupport
import PulseKit
import Testing

/// PulseKit's access check against a running server: the seed's rule, the sync when access looks
/// lost, failing closed, the offline cache and its expiry, and changes over realtime.
@Suite(.serialized) struct EntitlementClientLiveTests {
    static let day: Int64 = 86_400

    @Test(.timeLimit(.minutes(3)))
    func unknownThenSyncFindsTheStorePurchaseAndGrantsAccess() async throws {
        try await PulseServer.run { pulse in
            let folder = try TemporaryDirectory()
            let (client, user) = try await pulse.subscriber(folder.url, email: "sync-active@example.com")
            let before = await client.fetchActiveState()
            #expect(before.state == .unknown)
            #expect(before.source == .server)
            #expect(!before.grantsAccess)
            #expect(await client.isEntitled("access") == false)

            let ends = nowSeconds + 30 * Self.day
            pulse.fake.subscribe(customer: user, id: "sub-active", endsAt: ends)
            // Reading alone never calls a provider.
            #expect(await client.fetchActiveState().state == .unknown)
            let after = await client.ensureActiveOrSync()
            #expect(after.state == .active)
            #expect(after.source == .server)
            #expect(after.latestExpiration == Date(timeIntervalSince1970: TimeInterval(ends)))
            #expect(after.syncErrors == [])
            #expect(await client.isEntitled("access"))
            // Active: no further sync is asked for (the answer carries no sync errors field).
            #expect(await client.ensureActiveOrSync().syncErrors == nil)
        }
    }

    @Test(.timeLimit(.minutes(3)))
    func anExpiredSubscriptionStaysExpiredAfterASync() async throws {
        try await PulseServer.run { pulse in
            let folder = try TemporaryDirectory()
            let (client, user) = try await pulse.subscriber(folder.url, email: "sync-expired@example.com")
            let ended = nowSeconds - 2 * Self.day
            let hook = try pulse.webhook(user: user, id: "rc-old", expiresAt: ended, eventAt: nowSeconds - 40 * Self.day)
            #expect(hook.hasPrefix("HTTP/1.1 200 OK"), "\(hook)")
            #expect(try await PulseServer.eventually { await client.fetchActiveState().state == .expired })
            pulse.fake.subscribe(customer: user, id: "sub-old", endsAt: ended)
            let answer = await client.ensureActiveOrSync()
            #expect(answer.state == .expired)
            #expect(answer.source == .server)
            #expect(answer.syncErrors == [])
            #expect(answer.latestExpiration == Date(timeIntervalSince1970: TimeInterval(ended)))
            #expect(!answer.grantsAccess)
            #expect(await client.isEntitled("access") == false)
        }
    }

    @Test(.timeLimit(.minutes(3)))
    func aNetworkFailureNeverGrantsAccessAndTheCacheHoldsOnlyUntilItsExpiry() async throws {
        let folder = try TemporaryDirectory()
        let cached = try TemporaryDirectory()
        let ends = nowSeconds + 10 * Self.day
        let stash = Stash()
        try await PulseServer.run { pulse in
            // One account that never had a plan, one that is active (so its answer is cached).
            let (never, _) = try await pulse.subscriber(folder.url, email: "never@example.com")
            #expect(await never.fetchActiveState().state == .unknown)
            let (paying, user) = try await pulse.subscriber(cached.url, email: "paying@example.com")
            let hook = try pulse.webhook(user: user, id: "rc-pay", expiresAt: ends, eventAt: nowSeconds - 60)
            #expect(hook.hasPrefix("HTTP/1.1 200 OK"), "\(hook)")
            #expect(try await PulseServer.eventually { await paying.fetchActiveState().state == .active })
            #expect(await paying.isEntitled("access"))
            stash.set(never: never, paying: paying)
        }
        // The server is gone.
        let (never, paying) = try #require(stash.clients)
        let offline = await never.fetchActiveState()
        #expect(offline.state == .unknown)
        #expect(offline.source == .failure)
        #expect(!offline.grantsAccess)
        #expect(offline.problem?.contains("cannot reach the server") == true)
        #expect(await never.ensureActiveOrSync().grantsAccess == false)

        let remembered = await paying.fetchActiveState()
        #expect(remembered.state == .active)
        #expect(remembered.source == .cache)
        #expect(remembered.latestExpiration == Date(timeIntervalSince1970: TimeInterval(ends)))
        #expect(await paying.isEntitled("access"))

        // The same cache, read on a device whose clock is past the cached expiration: no access.
        let later = EntitlementClient(
            session: paying.session, cache: FileAccessCache(profileDirectory: cached.url),
            now: { Date(timeIntervalSince1970: TimeInterval(ends + 60)) }
        )
        let stale = await later.fetchActiveState()
        #expect(stale.state == .unknown)
        #expect(stale.source == .failure)
        #expect(await later.isEntitled("access") == false)

        // A cache file that does not decode is no cache at all.
        try Data("{not json".utf8).write(to: cached.url.appendingPathComponent("pulse-access.json"))
        #expect(await paying.fetchActiveState().source == .failure)
    }

    @Test(.timeLimit(.minutes(3)))
    func anEntitlementChangeArrivesOverRealtime() async throws {
        try await PulseServer.run { pulse in
            let folder = try TemporaryDirectory()
            let (client, user) = try await pulse.subscriber(folder.url, email: "watch@example.com")
            var changes = client.changes().makeAsyncIterator()
            let first = await changes.next()
            #expect(first?.state == .unknown)
            let ends = nowSeconds + 7 * Self.day
            let hook = try pulse.webhook(user: user, id: "rc-live", expiresAt: ends, eventAt: nowSeconds - 5)
            #expect(hook.hasPrefix("HTTP/1.1 200 OK"), "\(hook)")
            let next = await changes.next()
            #expect(next?.state == .active)
            #expect(next?.source == .server)
            #expect(next?.latestExpiration == Date(timeIntervalSince1970: TimeInterval(ends)))
        }
    }
}

/// Hands the clients out of the server's scope.
private final class Stash: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (EntitlementClient, EntitlementClient)?

    func set(never: EntitlementClient, paying: EntitlementClient) {
        lock.withLock { value = (never, paying) }
    }

    var clients: (EntitlementClient, EntitlementClient)? { lock.withLock { value } }
}
