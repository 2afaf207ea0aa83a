import Foundation
import KindredAPI
import KindredClient

/// The device's access check: Pulse's `SubscriptionStatusService`, `ensureActiveOrSync` and
/// `SplashLoader` in one place, for every app's premium gate.
///
/// Every check fails closed: a network failure, a refused session or an answer that does not
/// decode never grants access. The last answer the server gave is kept (`AccessCache`) and
/// honoured offline only while its latest expiration is ahead, never after.
public actor EntitlementClient {
    /// The signed-in session.
    public nonisolated let session: KindredSession
    let cache: any AccessCache
    let now: @Sendable () -> Date

    /// A checker for `session`'s account.
    /// - Parameters:
    ///   - session: the signed-in session (any app: Pulse's `access`, Closer's `premium`,
    ///     Ex-Eraser's `healing_pass`).
    ///   - cache: where the last answer is kept for offline use.
    ///   - now: the device's clock.
    public init(session: KindredSession, cache: any AccessCache, now: @escaping @Sendable () -> Date = { Date() }) {
        self.session = session
        self.cache = cache
        self.now = now
    }

    /// `fetchActiveState`: reads the account's subscription document and applies the
    /// latest-expiration rule at the device's `now`. On any failure, the cached answer while
    /// it still holds, else `.unknown` from `.failure` (no access).
    public func fetchActiveState() async -> AccessAnswer {
        do {
            return try await readFromServer(syncErrors: nil)
        } catch {
            return await fallback(error)
        }
    }

    /// `ensureActiveOrSync`: when the state is not active, asks the server to run both provider
    /// syncs (in parallel, server-side) and recomputes from what they appended. A rate-limited
    /// or failed sync leaves the re-read (or the fallback) as the answer.
    /// - Parameter force: sync even when active (a "Restore purchases" button).
    public func ensureActiveOrSync(force: Bool = false) async -> AccessAnswer {
        let first = await fetchActiveState()
        guard force || first.state != .active || first.source != .server else { return first }
        guard first.source != .failure || force else {
            // The server could not be read at all: a sync would fail the same way.
            return first
        }
        do {
            let syncErrors = try await requestSync(force: force)
            return try await readFromServer(syncErrors: syncErrors)
        } catch let error as KindredClientError where error.serverCode == "rate_limited" {
            return first
        } catch {
            return await fallback(error)
        }
    }

    /// The boot check of the seed's `SplashLoader`: read; when expired or unknown, sync and
    /// re-check. Same as `ensureActiveOrSync()`.
    public func bootCheck() async -> AccessAnswer {
        await ensureActiveOrSync()
    }

    /// Whether the app's named entitlement (Closer `premium`, Ex-Eraser `healing_pass`, Pulse
    /// `access`) is active now; fails closed like the access check (the cached expiry is
    /// honoured offline until it passes).
    public func isEntitled(_ name: String) async -> Bool {
        do {
            let answer = try await entitlements()
            return answer.entitlements.contains { $0.name == name && $0.active }
        } catch {
            guard let entry = await usableCache(), let expiry = entry.entitlements?[name] else { return false }
            return expiry > now()
        }
    }

    /// The app's entitlements as the server computes them (tier and each entitlement).
    /// - Throws: `PulseKitError.client` when the server cannot be read.
    public func entitlements() async throws -> Components.Schemas.Entitlements {
        let output = try await session.authorizedCall { [app = session.app] in
            try await $0.getMyEntitlements(headers: .init(xKindredApp: app))
        }
        let answer: Components.Schemas.Entitlements
        switch output {
        case .ok(let ok): switch ok.body { case .json(let body): answer = body }
        case .badRequest(let error): throw KindredClientError(status: 400, answer: error)
        case .unauthorized(let error): throw KindredClientError(status: 401, answer: error)
        case .default(let status, let error): throw KindredClientError(status: status, answer: error)
        }
        if var entry = await cache.load(), let userID = try? await session.storedSession()?.userID, entry.userID == userID {
            var expiries: [String: Date] = [:]
            for entitlement in answer.entitlements where entitlement.active {
                if let expires = entitlement.expiresAt { expiries[entitlement.name] = Date(timeIntervalSince1970: TimeInterval(expires)) }
            }
            entry.entitlements = expiries
            try? await cache.save(entry)
        }
        return answer
    }

    /// Entitlement changes as they happen: subscribes to the account's realtime channel and,
    /// for every `billing.entitlements` event (and after a gap), re-reads the state and yields
    /// it. The first element is the state when the subscription starts (read again once the
    /// subscription is live, and yielded again if it changed meanwhile). Ends when the
    /// consuming task is cancelled or the session is over.
    public nonisolated func changes() -> AsyncStream<AccessAnswer> {
        let (stream, continuation) = AsyncStream.makeStream(of: AccessAnswer.self)
        let task = Task {
            guard let userID = try? await session.storedSession()?.userID else {
                continuation.yield(await fetchActiveState())
                continuation.finish()
                return
            }
            // `startWithGap`: once the server confirms the subscription, a `.gap` comes first and
            // the state is read again, so a change made between the first read and the moment the
            // subscription was live (no event reaches a subscription not yet made) is not missed.
            // That re-read is yielded only when it differs from the first answer.
            let messages = session.subscribe(channel: "user:\(userID)", startWithGap: true)
            let first = await fetchActiveState()
            continuation.yield(first)
            var confirmed = false
            do {
                for try await message in messages {
                    switch message {
                    case .event(_, _, let type, _) where type == "billing.entitlements":
                        continuation.yield(await fetchActiveState())
                    case .gap where !confirmed:
                        confirmed = true
                        let answer = await fetchActiveState()
                        if !answer.sameAccess(as: first) { continuation.yield(answer) }
                    case .gap:
                        continuation.yield(await fetchActiveState())
                    case .event:
                        continue
                    }
                }
            } catch {
                continuation.yield(await fallback(error))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Forgets the cached answer (call on sign-out).
    public func forget() async throws(PulseKitError) {
        try await cache.clear()
    }

    // MARK: - Reading

    private func readFromServer(syncErrors: [String]?) async throws -> AccessAnswer {
        guard let userID = try await session.storedSession()?.userID else { throw KindredClientError.notSignedIn }
        let output = try await session.authorizedCall { [app = session.app] in
            try await $0.getMySubscriptionDocument(headers: .init(xKindredApp: app))
        }
        let document: Components.Schemas.PulseSubscriptionDocument
        switch output {
        case .ok(let ok): switch ok.body { case .json(let body): document = body }
        case .badRequest(let error): throw KindredClientError(status: 400, answer: error)
        case .unauthorized(let error): throw KindredClientError(status: 401, answer: error)
        case .default(let status, let error): throw KindredClientError(status: status, answer: error)
        }
        guard document.userId == userID else {
            throw KindredClientError.invalidResponse("the subscription document is for another account")
        }
        let checkedAt = now()
        let (state, latest) = AccessRule.evaluate(expirations: document.plans.map(\.expiration), now: checkedAt)
        let answer = AccessAnswer(state: state, latestExpiration: latest, source: .server, checkedAt: checkedAt, syncErrors: syncErrors)
        let previous = await cache.load()
        let entitlements = previous?.userID == userID ? previous?.entitlements : nil
        try? await cache.save(CachedAccess(userID: userID, app: session.app.rawValue, answer: answer, entitlements: entitlements))
        return answer
    }

    private func requestSync(force: Bool) async throws -> [String] {
        let output = try await session.authorizedCall { [app = session.app] in
            try await $0.syncMySubscription(headers: .init(xKindredApp: app), body: .json(.init(force: force)))
        }
        switch output {
        case .ok(let ok):
            switch ok.body { case .json(let body): return body.syncErrors?.map(\.rawValue) ?? [] }
        case .badRequest(let error): throw KindredClientError(status: 400, answer: error)
        case .unauthorized(let error): throw KindredClientError(status: 401, answer: error)
        case .tooManyRequests(let error): throw KindredClientError(status: 429, answer: error)
        case .default(let status, let error): throw KindredClientError(status: status, answer: error)
        }
    }

    /// The cached entry when it is this account's and still ahead of `now`.
    private func usableCache() async -> CachedAccess? {
        guard let entry = await cache.load(), entry.answer.state == .active, let latest = entry.answer.latestExpiration,
            latest > now(), let userID = try? await session.storedSession()?.userID, entry.userID == userID
        else { return nil }
        return entry
    }

    /// The answer when the server could not be read: the cache while it holds, else no access.
    private func fallback(_ error: any Error) async -> AccessAnswer {
        let problem = (error as? KindredClientError)?.description ?? "\(error)"
        if let entry = await usableCache() {
            var answer = entry.answer
            answer.source = .cache
            answer.problem = problem
            answer.syncErrors = nil
            return answer
        }
        return AccessAnswer(state: .unknown, latestExpiration: nil, source: .failure, checkedAt: now(), problem: problem)
    }
}
