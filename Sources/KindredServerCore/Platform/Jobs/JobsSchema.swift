import KindredStore
import SQLKit

/// The scheduler's tables, and the indexes its housekeeping jobs page by.
enum JobsSchema {
    /// `0003_jobs`: job state, run history, the SQLite scheduler lease, and expiry indexes for
    /// the paged purges of sessions and rate-limit windows.
    static let migration = Migration("0003_jobs") { sql in
        // One row per registered job: its schedule as last seen, the next run, the last run.
        try await sql.create(table: "kindred_jobs")
            .column("name", type: .text, .primaryKey(autoIncrement: false))
            .column("schedule", type: .text, .notNull)
            .column("time_zone", type: .text, .notNull)
            .column("next_run_at", type: .bigint, .notNull)
            .column("last_started_at", type: .bigint)
            .column("last_duration_ms", type: .bigint)
            .column("last_outcome", type: .text)
            .column("last_message", type: .text)
            .column("last_trigger", type: .text)
            .run()
        // The most recent runs of each job (the scheduler keeps a bounded number per job).
        try await sql.create(table: "kindred_job_runs")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("job_name", type: .text, .notNull)
            .column("trigger", type: .text, .notNull)
            .column("started_at", type: .bigint, .notNull)
            .column("duration_ms", type: .bigint, .notNull)
            .column("outcome", type: .text, .notNull)
            .column("message", type: .text, .notNull)
            .run()
        try await sql.create(index: "kindred_job_runs_job_started").on("kindred_job_runs")
            .column("job_name").column("started_at").run()
        // Which process leads the scheduler on SQLite (PostgreSQL uses an advisory lock).
        try await sql.create(table: "kindred_job_leases")
            .column("name", type: .text, .primaryKey(autoIncrement: false))
            .column("holder", type: .text, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .run()
        // Housekeeping pages through expired rows by time.
        try await sql.create(index: "kindred_rate_limit_events_time").on("kindred_rate_limit_events")
            .column("occurred_at").run()
        try await sql.create(index: "kindred_rate_limit_keys_seen").on("kindred_rate_limit_keys")
            .column("last_seen_at").run()
        try await sql.create(index: "kindred_sessions_expiry").on("kindred_sessions")
            .column("expires_at").run()
    }

    /// The scheduler's migrations, in order.
    static let migrations: [Migration] = [migration]
}
