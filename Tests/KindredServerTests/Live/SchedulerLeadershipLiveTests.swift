@testable import AdminConsole
@testable import BillingServer
@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// Two `kindred serve` processes on one database: exactly one runs the scheduled jobs, and the
/// other takes over when it stops.
@Suite(.serialized) struct SchedulerLeadershipLiveTests {
    static let leads = "now leads the job scheduler"
    /// Scheduler ticks every second, so "the other did not take over" means several refusals.
    static let environment = ["KINDRED_JOBS_POLL_SECONDS": "1"]

    @Test("PostgreSQL: one process holds the advisory lock; the second waits, then leads once the first stops")
    func postgres() async throws {
        guard TestDatabases.postgresURL != nil || TestDatabases.isCI else { return }
        try await TestDatabases.with(.postgresql) { database in
            guard case .postgres(let pg) = database.configuration.url else { return }
            let url = "postgres://\(pg.username)\(pg.password.map { ":\($0)" } ?? "")@\(pg.host):\(pg.port)/\(pg.database)"
            try await Self.handOver(databaseURL: url) {
                try await Self.schedulerLocks(database)
            }
        }
    }

    @Test("PostgreSQL: SIGTERM still stops the server promptly after its database was dropped under it")
    func stopsAfterItsDatabaseIsDropped() async throws {
        guard TestDatabases.postgresURL != nil || TestDatabases.isCI else { return }
        try await TestDatabases.with(.postgresql) { database in
            guard case .postgres(let pg) = database.configuration.url else { return }
            // A database of its own, dropped (sessions terminated) while the server leads the
            // scheduler: its dedicated lock connection is gone when shutdown releases it.
            let name = "kindred_dropped_\(UInt32.random(in: 0...UInt32.max))"
            try await database.sql.raw("CREATE DATABASE \(ident: name)").run()
            let url = "postgres://\(pg.username)\(pg.password.map { ":\($0)" } ?? "")@\(pg.host):\(pg.port)/\(name)"
            let server = try await LiveServer(databaseURL: url, environment: Self.environment)
            let led = try await server.waitForLog(Self.leads)
            let startLog = await server.log()
            #expect(led, "\(startLog)")
            try await database.sql.raw("DROP DATABASE \(ident: name) WITH (FORCE)").run()
            try await Task.sleep(for: .seconds(1))
            let (stopped, killed) = await server.stop(killingAfter: .seconds(15))
            #expect(!killed, "still running 15 s after SIGTERM:\n\(stopped.stderr.suffix(3_000))")
            #expect(stopped.status == 0)
            #expect(stopped.stderr.contains("job scheduler stopped"))
        }
    }

    @Test("SQLite: two processes on one file; one holds the lease, the other leads after the first stops")
    func sqlite() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.appendingPathComponent("kindred.sqlite").path
        try await Self.handOver(databaseURL: "sqlite:\(path)") {
            // The lease row names one holder at a time; a second row cannot exist (primary key).
            let database = try await Database.open(DatabaseConfiguration(url: .sqlite(path: path)))
            let rows = try await database.sql.select().column("holder").from("kindred_job_leases")
                .where("name", .equal, "scheduler").all()
            await database.close()
            return rows.count
        }
    }

    /// Starts one server, then a second on the same database; checks that only the first leads
    /// (and `holders()` says one holds leadership), stops the first and sees the second lead.
    static func handOver(
        databaseURL: String, holders: @escaping @Sendable () async throws -> Int
    ) async throws {
        let first = try await LiveServer(databaseURL: databaseURL, environment: environment)
        let leadsFirst = try await first.waitForLog(leads)
        let firstLog = await first.log()
        #expect(leadsFirst, "the first process never led:\n\(firstLog)")
        let second = try await LiveServer(databaseURL: databaseURL, environment: environment)
        do {
            // Three ticks of the second scheduler, each refused.
            try await Task.sleep(for: .seconds(3))
            let secondLog = await second.log()
            #expect(secondLog.contains("job scheduler started"), "\(secondLog)")
            #expect(!secondLog.contains(leads), "both processes lead:\n\(secondLog)")
            let count = try await holders()
            #expect(count == 1)

            let stopped = await first.stop()
            #expect(stopped.status == 0)
            let leadsSecond = try await second.waitForLog(leads)
            let takeOverLog = await second.log()
            #expect(leadsSecond, "the second process never took over:\n\(takeOverLog)")
            let after = try await holders()
            #expect(after == 1)
        } catch {
            _ = await first.stop()
            _ = await second.stop()
            throw error
        }
        #expect(await second.stop().status == 0)
    }

    /// Granted scheduler advisory locks in this database (the key "kjobs": class 0x6B, object 0x6A6F6273).
    static func schedulerLocks(_ database: Database) async throws -> Int {
        let row = try await database.sql.raw("""
            SELECT count(*) AS n FROM pg_locks
            WHERE locktype = 'advisory' AND granted AND classid::bigint = 107 AND objid::bigint = 1785684595
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            """).first()
        return try row?.decode(column: "n", as: Int.self) ?? 0
    }
}
