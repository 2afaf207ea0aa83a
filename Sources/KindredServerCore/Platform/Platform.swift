import Foundation
import KindredStore
import Logging
import ServiceLifecycle

/// The services every domain shares: scheduled jobs and the durable work queue.
///
/// Built once per server (`Platform.server(…)` registers every domain's jobs) and carried in
/// `Dependencies`; domains register their jobs on `jobs` and their queue handlers on `worker`,
/// and enqueue with `queue`. `buildApplication` runs `services` until graceful shutdown.
/// See docs/platform.md.
public struct Platform: Sendable {
    /// Platform settings.
    public struct Settings: Sendable {
        /// Whether this process runs scheduled jobs (`jobs.enabled`, default true).
        public var jobsEnabled = true
        /// Whether this process runs queue workers (`queue.enabled`, default true).
        public var queueEnabled = true
        /// Scheduler intervals and limits.
        public var scheduler = JobScheduler.Settings()
        /// How often an idle queue worker polls (`queue.pollMilliseconds`, default 1000).
        public var queuePollInterval: Duration = .seconds(1)
        /// How long idempotency keys of the work queue are kept (`queue.dedupeRetentionHours`, default 168).
        public var dedupeRetention: Duration = .seconds(7 * 86_400)
        /// The longest rate-limit window in use; older events are pruned (24 h).
        public var rateLimitRetention: Duration = .seconds(86_400)
        /// How long device-integrity verdicts are kept (`integrity.verdictRetentionDays`, default 90).
        public var integrityVerdictRetention: Duration = .seconds(90 * 86_400)

        /// Creates the default settings.
        public init() {}
    }

    /// The job scheduler: `jobs.register(Job(…))`.
    public let jobs: JobScheduler
    /// The work queue: `queue.enqueue(queue:payload:…, on: transaction)`.
    public let queue: WorkQueue
    /// The queue worker: `worker.register(QueueHandler(queue:…))`.
    public let worker: QueueWorker
    /// The settings it was built with.
    public let settings: Settings
    /// The realtime publisher for jobs (the hub's, once `buildServerParts` has bound it).
    public let realtime: RealtimeRelay

    /// Creates a platform with no jobs or handlers registered.
    public init(database: Database, clock: any WallClock, logger: Logger, settings: Settings = Settings()) {
        self.settings = settings
        jobs = JobScheduler(database: database, clock: clock, logger: logger, settings: settings.scheduler)
        queue = WorkQueue(database: database, clock: clock)
        worker = QueueWorker(queue: queue, logger: logger, pollInterval: settings.queuePollInterval)
        realtime = RealtimeRelay(database: database, clock: clock, logger: logger)
    }

    /// The long-running services to add after the database's (they stop before it closes).
    public var services: [any Service] {
        var services: [any Service] = []
        if settings.jobsEnabled { services.append(jobs) }
        if settings.queueEnabled { services.append(worker) }
        return services
    }

    /// The server's platform: the core's jobs and every domain's registered. The server and
    /// `kindred jobs` both build it here, so an operator sees and runs exactly the server's jobs.
    /// - Throws: `JobError` when two jobs share a name or a schedule is invalid.
    package static func server(
        environment: DomainEnvironment, settings: Settings = Settings(),
        realtime: RealtimeSettings = RealtimeSettings(), domains: [any ServerDomain]
    ) throws -> Platform {
        let platform = Platform(
            database: environment.database, clock: environment.clock, logger: environment.logger, settings: settings
        )
        try platform.registerHousekeeping(database: environment.database, clock: environment.clock)
        try AccountsJobs.register(on: platform)
        try NotificationsQueue.registerJobs(on: platform)
        try IntegrityPurge.registerJobs(on: platform, retention: settings.integrityVerdictRetention)
        try RealtimeEventStore.registerJobs(on: platform, settings: realtime)
        for domain in domains {
            try domain.registerJobs(on: platform, environment: environment)
        }
        return platform
    }

    /// The platform's own housekeeping: expired rate-limit windows and old idempotency keys.
    package func registerHousekeeping(database: Database, clock: any WallClock) throws(JobError) {
        let rateLimiter = RateLimiter(database: database, clock: clock)
        let window = settings.rateLimitRetention
        try jobs.register(
            Job("platform.prune-rate-limits", schedule: "7 * * * *") { context in
                let deleted = try await context.forEachPage(limit: 500) { limit in
                    try await rateLimiter.pruneExpiredPage(maxWindow: window, limit: limit)
                }
                return "deleted \(deleted) expired rate-limit events and keys"
            }
        )
        let queue = self.queue
        let retention = settings.dedupeRetention
        try jobs.register(
            Job("platform.prune-queue-keys", schedule: "17 3 * * *") { context in
                let deleted = try await context.forEachPage(limit: 500) { limit in
                    try await queue.pruneDedupeKeys(retention: retention, limit: limit)
                }
                return "deleted \(deleted) idempotency keys past retention"
            }
        )
    }
}
