import Foundation
import KindredStore
import Logging
import SQLKit

/// Decides which process runs the scheduled jobs of one database.
///
/// - PostgreSQL: a session advisory lock (`pg_try_advisory_lock`) taken on a dedicated
///   connection (not a pooled one) and held while the process leads; if that connection drops,
///   PostgreSQL releases the lock and another replica takes over on its next tick.
/// - SQLite: a lease row in `kindred_job_leases`, renewed on every tick, so a second process
///   on the same file waits until the leader stops renewing it.
///
/// Either way each run is also taken by compare-and-set on its `next_run_at`, so even a stale
/// leader cannot run an occurrence twice.
actor SchedulerLeadership {
    /// The advisory lock key: "kjobs" in ASCII (the migration lock is "kindred").
    static let lockKey: Int64 = 0x6B_6A6F_6273

    let database: Database
    let clock: any WallClock
    let logger: Logger
    /// Who this process is in the lease row.
    let holder: String
    /// How long an SQLite lease lasts without renewal.
    let leaseDuration: Duration

    private var connection: DedicatedConnection?
    private var leading = false
    private var usesLease: Bool?

    init(database: Database, clock: any WallClock, logger: Logger, holder: String, leaseDuration: Duration) {
        self.database = database
        self.clock = clock
        self.logger = logger
        self.holder = holder
        self.leaseDuration = leaseDuration
    }

    /// Whether this process leads now: keeps or renews leadership, or tries to take it.
    func acquire() async -> Bool {
        do {
            if usesLease == nil {
                connection = try await database.openDedicatedConnection(logger: logger)
                usesLease = connection == nil
            }
            let result = usesLease == true ? try await renewLease() : try await holdLock()
            if result != leading {
                logger.info("\(result ? "now leads" : "no longer leads") the job scheduler", metadata: ["holder": "\(holder)"])
            }
            leading = result
        } catch {
            logger.warning("job scheduler leadership check failed: \(error)")
            leading = false
        }
        return leading
    }

    /// Gives up leadership: closes the dedicated connection (which ends the lock), or deletes the lease.
    func release() async {
        if let connection {
            // Ending the session releases its advisory lock. No `pg_advisory_unlock` first: on
            // a connection the server has already dropped (database dropped or restarted, the
            // session terminated) that query never answered, and shutdown hung on it.
            _ = try? await boundedCall(within: Self.callLimit) { await connection.close() }
            self.connection = nil
            usesLease = nil
        } else if usesLease == true, leading {
            _ = try? await database.sql.delete(from: "kindred_job_leases")
                .where("name", .equal, "scheduler").where("holder", .equal, holder).run()
        }
        leading = false
    }

    /// PostgreSQL: checks the held lock's connection, or (re)connects and tries the lock.
    private func holdLock() async throws -> Bool {
        if let connection, !connection.isClosed, leading {
            // The lock lives as long as the session: a live session still holds it.
            let alive: Bool = (try? await boundedCall(within: Self.callLimit) {
                try await connection.sql.raw("SELECT 1").run()
                return true
            }) ?? false
            if alive { return true }
            // No answer or an error: the session (and with it the lock) is gone. Its connection
            // is left to close on its own rather than waited on.
            let lost = connection
            self.connection = nil
            Task { await lost.close() }
        }
        if connection == nil || connection?.isClosed == true {
            connection = nil
            let database = database, logger = logger
            connection = try await boundedCall(within: Self.callLimit) { try await database.openDedicatedConnection(logger: logger) }
        }
        guard let connection else { return false }
        let row = try await boundedCall(within: Self.callLimit) {
            try await connection.sql.raw("SELECT pg_try_advisory_lock(\(bind: Self.lockKey)) AS locked").first()
        }
        return try row?.decode(column: "locked", as: Bool.self) ?? false
    }

    /// The longest the scheduler waits on one call on its dedicated connection.
    static let callLimit: Duration = .seconds(3)

    /// SQLite: takes the lease when it is free, expired or already ours, and extends it.
    private func renewLease() async throws -> Bool {
        let now = clock.now().millisecondsSince1970
        let until = now + leaseDuration.milliseconds
        let holder = self.holder
        return try await database.transaction { sql in
            let current = try await sql.select().columns("holder", "expires_at").from("kindred_job_leases")
                .where("name", .equal, "scheduler").first()
            if let current {
                let owner = try current.decode(column: "holder", as: String.self)
                let expires = try current.decode(column: "expires_at", as: Int64.self)
                guard owner == holder || expires <= now else { return false }
                try await sql.update("kindred_job_leases").set("holder", to: holder).set("expires_at", to: until)
                    .where("name", .equal, "scheduler").run()
            } else {
                try await sql.insert(into: "kindred_job_leases").columns("name", "holder", "expires_at")
                    .values(SQLBind("scheduler"), SQLBind(holder), SQLBind(until)).run()
            }
            return true
        }
    }
}
