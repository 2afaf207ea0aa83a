import Foundation
import KindredStore
import SQLKit

/// The scheduler's reads and writes of `kindred_jobs` and `kindred_job_runs`.
struct JobStore: Sendable {
    let database: Database

    /// A job's persisted schedule and next run.
    struct State: Sendable, Equatable {
        var schedule: String
        var timeZone: String
        var nextRunAt: Int64
    }

    /// The longest message kept for a run, in characters.
    static let maxMessageLength = 2_000

    /// Makes sure `job` has a row: a new job (or one whose schedule or zone changed in code)
    /// gets its next run computed from `now`; otherwise the stored next run stands, so a run
    /// missed while no scheduler ran is still due.
    /// - Returns: the persisted state.
    func sync(_ job: Job, now: Date) async throws -> State {
        let zone = job.timeZoneIdentifier
        let fresh = State(
            schedule: job.schedule.expression, timeZone: zone,
            nextRunAt: (job.schedule.nextRun(after: now, in: job.timeZone) ?? .distantFuture).millisecondsSince1970
        )
        return try await database.transaction { sql in
            if let stored = try await Self.state(job.name, on: sql) {
                guard stored.schedule != fresh.schedule || stored.timeZone != fresh.timeZone else { return stored }
                try await sql.update("kindred_jobs")
                    .set("schedule", to: fresh.schedule).set("time_zone", to: zone).set("next_run_at", to: fresh.nextRunAt)
                    .where("name", .equal, job.name).run()
                return fresh
            }
            try await sql.insert(into: "kindred_jobs")
                .columns("name", "schedule", "time_zone", "next_run_at")
                .values(SQLBind(job.name), SQLBind(fresh.schedule), SQLBind(zone), SQLBind(fresh.nextRunAt))
                .ignoringConflicts()
                .run()
            return try await Self.state(job.name, on: sql) ?? fresh
        }
    }

    /// The stored state of `name`, if it has a row.
    static func state(_ name: String, on sql: any SQLDatabase) async throws -> State? {
        guard let row = try await sql.select().columns("schedule", "time_zone", "next_run_at")
            .from("kindred_jobs").where("name", .equal, name).first()
        else { return nil }
        return State(
            schedule: try row.decode(column: "schedule", as: String.self),
            timeZone: try row.decode(column: "time_zone", as: String.self),
            nextRunAt: try row.decode(column: "next_run_at", as: Int64.self)
        )
    }

    /// Takes the run due at `expected` by moving the next run to `next`, only if no one else
    /// has (compare-and-set on `next_run_at`): two schedulers can never both take one run.
    /// - Returns: whether this caller took it.
    func claim(_ name: String, expected: Int64, next: Int64, startedAt: Int64) async throws -> Bool {
        let rows = try await database.sql.update("kindred_jobs")
            .set("next_run_at", to: next).set("last_started_at", to: startedAt)
            .where("name", .equal, name).where("next_run_at", .equal, expected)
            .returning("name").all()
        return rows.count == 1
    }

    /// Records a finished run as the job's last run and in its history, keeping the newest
    /// `historyLimit` history rows of the job.
    func record(_ run: JobRun, historyLimit: Int) async throws {
        let message = String(run.message.prefix(Self.maxMessageLength))
        let started = run.startedAt.millisecondsSince1970
        try await database.transaction { sql in
            try await sql.update("kindred_jobs")
                .set("last_started_at", to: started).set("last_duration_ms", to: run.durationMilliseconds)
                .set("last_outcome", to: run.outcome.rawValue).set("last_message", to: message)
                .set("last_trigger", to: run.trigger.rawValue)
                .where("name", .equal, run.name).run()
            try await sql.insert(into: "kindred_job_runs")
                .columns("id", "job_name", "trigger", "started_at", "duration_ms", "outcome", "message")
                .values(
                    SQLBind(UUID().uuidString.lowercased()), SQLBind(run.name), SQLBind(run.trigger.rawValue),
                    SQLBind(started), SQLBind(run.durationMilliseconds), SQLBind(run.outcome.rawValue), SQLBind(message)
                )
                .run()
            let keep = try await sql.select().column("id").from("kindred_job_runs")
                .where("job_name", .equal, run.name)
                .orderBy("started_at", .descending).orderBy("id", .descending)
                .limit(historyLimit).all()
                .map { try $0.decode(column: "id", as: String.self) }
            try await sql.delete(from: "kindred_job_runs")
                .where("job_name", .equal, run.name).where("id", .notIn, keep).run()
        }
    }

    /// The newest runs of `name`, newest first.
    func history(_ name: String, limit: Int) async throws -> [JobRun] {
        try await database.sql.select().columns("trigger", "started_at", "duration_ms", "outcome", "message")
            .from("kindred_job_runs").where("job_name", .equal, name)
            .orderBy("started_at", .descending).orderBy("id", .descending).limit(limit).all()
            .map { row in
                JobRun(
                    name: name,
                    trigger: JobTrigger(rawValue: try row.decode(column: "trigger", as: String.self)) ?? .schedule,
                    startedAt: Date(millisecondsSince1970: try row.decode(column: "started_at", as: Int64.self)),
                    durationMilliseconds: try row.decode(column: "duration_ms", as: Int64.self),
                    outcome: JobOutcome(rawValue: try row.decode(column: "outcome", as: String.self)) ?? .failed,
                    message: try row.decode(column: "message", as: String.self)
                )
            }
    }

    /// The persisted status of `name` (nil before its first sync).
    func status(_ name: String) async throws -> JobStatus? {
        guard let row = try await database.sql.select().column("*").from("kindred_jobs")
            .where("name", .equal, name).first()
        else { return nil }
        var last: JobRun?
        if let outcome = try row.decode(column: "last_outcome", as: String?.self),
           let started = try row.decode(column: "last_started_at", as: Int64?.self) {
            last = JobRun(
                name: name,
                trigger: JobTrigger(rawValue: try row.decode(column: "last_trigger", as: String?.self) ?? "") ?? .schedule,
                startedAt: Date(millisecondsSince1970: started),
                durationMilliseconds: try row.decode(column: "last_duration_ms", as: Int64?.self) ?? 0,
                outcome: JobOutcome(rawValue: outcome) ?? .failed,
                message: try row.decode(column: "last_message", as: String?.self) ?? ""
            )
        }
        return JobStatus(
            name: name, schedule: try row.decode(column: "schedule", as: String.self),
            timeZone: try row.decode(column: "time_zone", as: String.self),
            nextRunAt: Date(millisecondsSince1970: try row.decode(column: "next_run_at", as: Int64.self)),
            lastRun: last
        )
    }
}

extension Date {
    /// The date `milliseconds` after 1970-01-01T00:00:00Z.
    package init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }
}
