import Foundation
import KindredStore
import Logging
import NIOConcurrencyHelpers

/// Runs registered jobs on their schedules; exactly one process per database leads.
///
/// Register jobs before the server starts (`register(_:)`); the scheduler runs as a
/// swift-service-lifecycle service (see `JobScheduler+Service.swift`). Tests drive it without
/// sleeping: move a `TestClock`, then call `runDue()`.
public final class JobScheduler: Sendable {
    /// Scheduler settings.
    public struct Settings: Sendable {
        /// The longest wait between two ticks (a tick also comes when the next run is due).
        public var pollInterval: Duration = .seconds(5)
        /// How long an SQLite leader's lease lasts without renewal.
        public var leaseDuration: Duration = .seconds(60)
        /// The runs kept per job in `kindred_job_runs`.
        public var historyLimit: Int = 50
        /// A run started this much after its time counts as a catch-up.
        public var catchUpThreshold: Duration = .seconds(60)
        /// How long a tick in progress when graceful shutdown begins may go on before the
        /// scheduler stops without it (a run waiting on a database that no longer answers).
        public var shutdownGrace: Duration = .seconds(10)

        /// Creates the default settings.
        public init() {}
    }

    let database: Database
    let clock: any WallClock
    let logger: Logger
    let settings: Settings
    let store: JobStore
    let leadership: SchedulerLeadership
    private let registered = NIOLockedValueBox<[String: Job]>([:])

    /// Creates a scheduler with no jobs.
    /// - Parameters:
    ///   - database: the server's database (migrated with `ServerMigrations.all`).
    ///   - clock: decides what is due.
    ///   - logger: the server's logger.
    ///   - settings: intervals and limits.
    public init(database: Database, clock: any WallClock, logger: Logger, settings: Settings = Settings()) {
        self.database = database
        self.clock = clock
        self.logger = logger
        self.settings = settings
        self.store = JobStore(database: database)
        self.leadership = SchedulerLeadership(
            database: database, clock: clock, logger: logger,
            holder: "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier):\(UUID().uuidString.prefix(8))",
            leaseDuration: settings.leaseDuration
        )
    }

    /// Adds a job.
    /// - Throws: `JobError.duplicateName` when a job of that name is registered.
    public func register(_ job: Job) throws(JobError) {
        let added = registered.withLockedValue { jobs in
            guard jobs[job.name] == nil else { return false }
            jobs[job.name] = job
            return true
        }
        guard added else { throw .duplicateName(job.name) }
    }

    /// The registered jobs, by name.
    public var jobs: [Job] { registered.withLockedValue { $0.values.sorted { $0.name < $1.name } } }

    /// Every registered job's schedule and persisted state (rows are created for new jobs).
    public func statuses() async throws -> [JobStatus] {
        var result: [JobStatus] = []
        for job in jobs {
            _ = try await store.sync(job, now: clock.now())
            if let status = try await store.status(job.name) { result.append(status) }
        }
        return result
    }

    /// The newest recorded runs of `name`, newest first.
    public func history(_ name: String, limit: Int = 50) async throws -> [JobRun] {
        try await store.history(name, limit: limit)
    }

    /// One tick: if this process leads, runs every job whose time has come, once each (a run
    /// missed while no scheduler ran is caught up once, not once per missed time), concurrently.
    /// - Returns: the runs this tick made, by name; empty when another process leads.
    @discardableResult
    public func runDue() async -> [JobRun] {
        guard await leadership.acquire() else { return [] }
        let now = clock.now()
        var due: [(Job, JobStore.State)] = []
        for job in jobs {
            do {
                let state = try await store.sync(job, now: now)
                if state.nextRunAt <= now.millisecondsSince1970 { due.append((job, state)) }
            } catch {
                logger.error("job \(job.name): cannot read its state: \(error)")
            }
        }
        return await withTaskGroup(of: JobRun?.self) { group in
            for (job, state) in due {
                group.addTask { await self.runScheduled(job, state: state, now: now) }
            }
            var runs: [JobRun] = []
            for await run in group { if let run { runs.append(run) } }
            return runs.sorted { $0.name < $1.name }
        }
    }

    /// Gives up leadership (unlocks and closes the dedicated connection, or drops the lease);
    /// the service does this on shutdown. A later `runDue()` tries to lead again.
    public func resign() async { await leadership.release() }

    /// When the next registered job is due (nil with no jobs or before their rows exist).
    func nextDue() async -> Date? {
        var earliest: Date?
        for job in jobs {
            guard let status = try? await store.status(job.name) else { continue }
            earliest = min(earliest ?? status.nextRunAt, status.nextRunAt)
        }
        return earliest
    }

    /// Runs `name` now, outside its schedule (its next scheduled run is unchanged), and records it.
    /// - Throws: `JobError.unknownJob`; a failing body is recorded, not thrown.
    public func runNow(_ name: String) async throws -> JobRun {
        guard let job = registered.withLockedValue({ $0[name] }) else { throw JobError.unknownJob(name) }
        _ = try await store.sync(job, now: clock.now())
        return await execute(job, trigger: .manual, scheduledFor: nil)
    }

    /// Takes the due run by compare-and-set, then executes it.
    private func runScheduled(_ job: Job, state: JobStore.State, now: Date) async -> JobRun? {
        let next = (job.schedule.nextRun(after: now, in: job.timeZone) ?? .distantFuture).millisecondsSince1970
        do {
            guard try await store.claim(job.name, expected: state.nextRunAt, next: next, startedAt: now.millisecondsSince1970)
            else { return nil }
        } catch {
            logger.error("job \(job.name): cannot take its run: \(error)")
            return nil
        }
        let late = now.millisecondsSince1970 - state.nextRunAt
        let trigger: JobTrigger = late > settings.catchUpThreshold.milliseconds ? .catchUp : .schedule
        return await execute(job, trigger: trigger, scheduledFor: Date(millisecondsSince1970: state.nextRunAt))
    }

    /// Runs the body, measures it, and records the outcome.
    private func execute(_ job: Job, trigger: JobTrigger, scheduledFor: Date?) async -> JobRun {
        var jobLogger = logger
        jobLogger[metadataKey: "job"] = "\(job.name)"
        let context = JobContext(
            name: job.name, trigger: trigger, scheduledFor: scheduledFor,
            database: database, clock: clock, logger: jobLogger
        )
        let startedAt = clock.now()
        let started = ContinuousClock.now
        var run = JobRun(name: job.name, trigger: trigger, startedAt: startedAt, durationMilliseconds: 0, outcome: .ok, message: "")
        do {
            run.message = try await job.body(context)
        } catch {
            run.outcome = .failed
            run.message = String(describing: error)
        }
        run.durationMilliseconds = (ContinuousClock.now - started).milliseconds
        jobLogger.log(
            level: run.outcome == .ok ? .info : .error,
            "job \(run.outcome == .ok ? "finished" : "failed") in \(run.durationMilliseconds) ms: \(run.message)",
            metadata: ["trigger": "\(trigger.rawValue)"]
        )
        do {
            try await store.record(run, historyLimit: settings.historyLimit)
        } catch {
            jobLogger.error("cannot record the run: \(error)")
        }
        return run
    }
}
