import Foundation
import KindredAPI
import KindredClient

/// The seed's `EntitlementChecker` for Closer: whether the account has `premium`, read from the
/// server (`GET /v1/me/entitlements`), observed over realtime (`billing.entitlements` on
/// `user:<id>`), and failing closed: when the server cannot be read, the last server answer is
/// honoured only while its expiry is ahead on the device's clock; otherwise not premium.
public actor EntitlementChecker {
    /// Closer's entitlement name.
    public static let premium = "premium"

    /// The signed-in session (app `closer`).
    public nonisolated let session: KindredSession
    let store: EntitlementStore
    let now: @Sendable () -> Date

    /// A checker for `session`'s account, remembering answers in `store`.
    public init(session: KindredSession, store: EntitlementStore, now: @escaping @Sendable () -> Date = { Date() }) {
        self.session = session
        self.store = store
        self.now = now
    }

    /// The current answer: the server's, else the remembered one while it holds, else not premium.
    public func check() async -> PremiumStatus {
        do {
            return try await fromServer()
        } catch {
            return await fallback(error)
        }
    }

    /// Answers as they change: the current one first, then a fresh one after every
    /// `billing.entitlements` event (and after a gap); the fallback when the stream fails.
    /// Ends when the consuming task is cancelled.
    public nonisolated func changes() -> AsyncStream<PremiumStatus> {
        let (stream, continuation) = AsyncStream.makeStream(of: PremiumStatus.self)
        let task = Task {
            guard let userId = try? await session.storedSession()?.userID else {
                continuation.yield(await check())
                continuation.finish()
                return
            }
            // `startWithGap`: the state is read again once the subscription is live (a change
            // made before that sends no event to it) and yielded again only if it changed.
            let messages = session.subscribe(channel: "user:\(userId)", startWithGap: true)
            let first = await check()
            continuation.yield(first)
            var confirmed = false
            do {
                for try await message in messages {
                    switch message {
                    case .event(_, _, let type, _) where type == "billing.entitlements": continuation.yield(await check())
                    case .gap where !confirmed:
                        confirmed = true
                        let status = await check()
                        if status != first { continuation.yield(status) }
                    case .gap: continuation.yield(await check())
                    case .event: continue
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

    private func fromServer() async throws -> PremiumStatus {
        guard let userId = try await session.storedSession()?.userID else { throw KindredClientError.notSignedIn }
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
        let entitlement = answer.entitlements.first { $0.name == Self.premium && $0.active }
        let expiresAt = entitlement?.expiresAt.map { Date(timeIntervalSince1970: TimeInterval($0)) }
        try? store.save(.init(userId: userId, isPremium: entitlement != nil, expiresAt: expiresAt))
        return PremiumStatus(isPremium: entitlement != nil, expiresAt: expiresAt, source: .server)
    }

    /// The remembered answer while it is this account's, premium, and before its expiry; else closed.
    private func fallback(_ error: any Error) async -> PremiumStatus {
        let problem = (error as? KindredClientError)?.description ?? "\(error)"
        let userId = try? await session.storedSession()?.userID
        if let entry = store.load(), entry.isPremium, let expiresAt = entry.expiresAt, expiresAt > now(),
           let userId, entry.userId == userId {
            return PremiumStatus(isPremium: true, expiresAt: expiresAt, source: .cache, problem: problem)
        }
        return PremiumStatus(isPremium: false, expiresAt: nil, source: .failure, problem: problem)
    }
}
