import Hummingbird
import KindredStore
import Logging
import ServiceLifecycle
import SQLKit

/// The realtime service of one replica: publishing, subscriptions, tickets, authorization,
/// and (on PostgreSQL) the LISTEN connection that brings other replicas' events.
///
/// Runs as a service of the application, so it stops before the database closes.
public final class RealtimeHub: Service, Sendable {
    /// Publishes events inside transactions (give it to the domains).
    public let publisher: RealtimePublisher
    /// The settings it runs with.
    public let settings: RealtimeSettings

    package let database: Database
    package let clock: any WallClock
    let store: RealtimeEventStore
    let broker: RealtimeBroker
    let tickets: RealtimeTickets
    package let authorizers: ChannelAuthorizers
    let tokens: TokenService
    package let apps: AppRegistry
    package let logger: Logger
    /// The open connections by session, closed when their session ends.
    package let sessions: RealtimeSessions
    /// The heartbeat's session re-checks, coalesced per session.
    let sessionChecks: RealtimeSessionChecks
    /// The open WebSockets per user, capped at `settings.socketsPerUser`.
    let socketQuota: RealtimeSocketQuota

    init(
        database: Database, clock: any WallClock, settings: RealtimeSettings, authorizers: ChannelAuthorizers,
        tokens: TokenService, apps: AppRegistry, logger: Logger, sessions: RealtimeSessions
    ) {
        let store = RealtimeEventStore(database: database)
        let broker = RealtimeBroker(store: store, logger: logger, activity: MinuteCounts(clock: clock))
        self.database = database
        self.clock = clock
        self.settings = settings
        self.store = store
        self.broker = broker
        self.authorizers = authorizers
        self.tokens = tokens
        self.apps = apps
        self.logger = logger
        self.sessions = sessions
        // A reused result is never older than half a heartbeat.
        self.sessionChecks = RealtimeSessionChecks(freshness: min(.seconds(5), settings.heartbeatInterval / 2))
        self.tickets = RealtimeTickets(database: database, clock: clock, lifetime: settings.ticketLifetime)
        self.socketQuota = RealtimeSocketQuota(limit: settings.socketsPerUser)
        self.publisher = RealtimePublisher(store: store, clock: clock, broker: broker)
    }

    /// Runs the channel pumps and, on PostgreSQL, listens for other replicas' events
    /// (reconnecting after a lost connection and then re-reading every subscribed channel),
    /// until graceful shutdown or cancellation.
    ///
    /// Every background task of the hub is a child of this call: on shutdown they are
    /// cancelled and awaited, and only then does it return, so nothing of the hub touches
    /// the database after it has stopped (the database closes after it).
    public func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.broker.runPumps() }
            if database.supportsNotifications {
                group.addTask { await self.listen() }
            }
            // Returns on graceful shutdown, throws when cancelled: either way, stop.
            try? await gracefulShutdown()
            group.cancelAll()
        }
        await broker.closeAll()
    }

    private func listen() async {
        var failures = 0
        while !Task.isCancelled {
            do {
                try await database.listen(
                    channel: RealtimePublisher.notifyChannel, logger: logger,
                    onListening: { await self.broker.resynchronise() }
                ) { payload in
                    await self.receive(payload)
                }
                failures = 0
            } catch {
                if Task.isCancelled { return }
                failures += 1
                logger.warning("realtime: LISTEN connection failed", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: .milliseconds(min(5000, 200 * (failures + 1))))
        }
    }

    /// Handles a NOTIFY payload.
    package func receive(_ payload: String) async {
        switch RealtimeNotice(payload: payload) {
        case .event(let channel, let seq): await broker.notified(channel: channel, seq: seq)
        case .revalidateChannel(let channel): await revalidateHere(await broker.subscriptions(on: channel))
        case .revalidateUser(let userID): await revalidateHere(await broker.subscriptions(of: userID))
        case .sessionEnded(let sessionID): sessions.end(.session(sessionID))
        case .userSessionsEnded(let userID): sessions.end(.user(userID))
        case nil: logger.debug("realtime: ignored notification", metadata: ["payload": "\(payload.prefix(80))"])
        }
    }

    // MARK: - Membership changes

    /// Who may read `channel` changed: every replica re-checks its subscriptions and ends those
    /// no longer allowed (the client gets `unsubscribed` with reason `forbidden`).
    public func revalidate(channel: RealtimeChannel) async throws {
        try await announce(.revalidateChannel(channel.name))
        await revalidateHere(await broker.subscriptions(on: channel.name))
    }

    /// The user's memberships changed (left a couple, removed from a chat): every replica
    /// re-checks all of that user's subscriptions.
    public func membershipChanged(user userID: String) async throws {
        try await announce(.revalidateUser(userID))
        await revalidateHere(await broker.subscriptions(of: userID))
    }

    private func announce(_ notice: RealtimeNotice) async throws {
        guard database.supportsNotifications else { return }
        try await database.sql.raw(
            "SELECT pg_notify(\(bind: RealtimePublisher.notifyChannel), \(bind: notice.payload))"
        ).run()
    }

    private func revalidateHere(_ subscriptions: [RealtimeSubscription]) async {
        for subscription in subscriptions where !subscription.isClosed {
            let allowed: Bool
            do {
                let channel = try RealtimeChannel(subscription.channel)
                allowed = try await authorizers.mayRead(
                    channel, userID: subscription.identity.userID, app: subscription.identity.app
                )
            } catch {
                allowed = false
            }
            guard !allowed else { continue }
            if subscription.close(sending: RealtimeFrame.unsubscribed(subscription.channel, reason: "forbidden")) {
                await broker.detach(subscription)
            }
        }
    }

    // MARK: - Retention

    /// Deletes events past the retention age or beyond the per-channel count, and expired
    /// tickets; for the housekeeping job.
    /// - Parameter batchSize: rows per delete statement.
    /// - Returns: the number of events deleted.
    @discardableResult
    public func pruneExpired(batchSize: Int = 1000) async throws -> Int {
        let now = clock.now()
        return try await store.prune(
            olderThan: now.addingTimeInterval(-settings.retentionAge.timeInterval).millisecondsSince1970,
            keepPerChannel: settings.retentionCount, now: now.millisecondsSince1970, batchSize: batchSize
        )
    }

    /// The number of subscriptions on this replica.
    public var subscriptionCount: Int {
        get async { await broker.subscriptionCount }
    }
}

extension RealtimeEventStore {
    /// Registers `realtime.prune-events`: hourly, deletes events past the retention age or count
    /// and expired tickets.
    static func registerJobs(on platform: Platform, settings: RealtimeSettings) throws(JobError) {
        try platform.jobs.register(
            Job("realtime.prune-events", schedule: "41 * * * *") { context in
                let now = context.clock.now()
                let deleted = try await RealtimeEventStore(database: context.database).prune(
                    olderThan: now.addingTimeInterval(-settings.retentionAge.timeInterval).millisecondsSince1970,
                    keepPerChannel: settings.retentionCount, now: now.millisecondsSince1970, batchSize: 1000
                )
                return "deleted \(deleted) realtime events past retention"
            }
        )
    }
}
