@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// The scheduler on SQLite and PostgreSQL, driven by a test clock (no sleeping).
@Suite struct JobSchedulerTests {
    /// A scheduler whose SQLite lease outlasts the test's clock moves unless `lease` is given.
    func scheduler(
        _ database: Database, _ clock: TestClock, historyLimit: Int = 50, lease: Duration = .seconds(3600)
    ) -> JobScheduler {
        var settings = JobScheduler.Settings()
        settings.historyLimit = historyLimit
        settings.leaseDuration = lease
        return JobScheduler(database: database, clock: clock, logger: platformLogger, settings: settings)
    }

    @Test(arguments: Backend.all)
    func runsWhenDueAndCatchesUpMissedRunsOnceOnStart(backend: Backend) async throws {
        try await withMigratedDatabase(backend) { database in
            let clock = TestClock(start: try instant("2026-01-01T10:00:30Z"))
            let tally = Tally()
            let job = try Job("test.hourly", schedule: "@hourly") { _ in tally.add("run"); return "done" }
            let first = scheduler(database, clock)
            try first.register(job)

            #expect(await first.runDue().isEmpty)  // not due before 11:00
            clock.set(try instant("2026-01-01T11:00:00Z"))
            let runs = await first.runDue()
            #expect(runs.map(\.trigger) == [.schedule])
            #expect(runs.map(\.message) == ["done"])
            #expect(await first.runDue().isEmpty)
            await first.resign()

            // The server is down from 11:00 to 14:30: 12:00, 13:00 and 14:00 are missed.
            clock.set(try instant("2026-01-01T14:30:00Z"))
            let restarted = scheduler(database, clock)
            try restarted.register(job)
            let caughtUp = await restarted.runDue()
            #expect(caughtUp.map(\.trigger) == [.catchUp])
            #expect(await restarted.runDue().isEmpty)
            #expect(tally.count("run") == 2)
            let status = try #require(try await restarted.statuses().first)
            #expect(status.nextRunAt == (try instant("2026-01-01T15:00:00Z")))
            #expect(status.lastRun?.trigger == .catchUp)
            #expect(status.lastRun?.outcome == .ok)
            #expect(status.lastRun?.startedAt == (try instant("2026-01-01T14:30:00Z")))
            await restarted.resign()
        }
    }

    @Test(arguments: Backend.all)
    func failureOutcomeAndBoundedHistoryAreRecorded(backend: Backend) async throws {
        try await withMigratedDatabase(backend) { database in
            let clock = TestClock(start: try instant("2026-01-01T10:00:00Z"))
            let jobs = scheduler(database, clock, historyLimit: 3)
            try jobs.register(Job("test.failing", schedule: "*/5 * * * *") { _ in throw TestFailure(description: "provider down") })
            #expect(throws: JobError.duplicateName("test.failing")) { try jobs.register(Job("test.failing", schedule: "@daily") { _ in "" }) }
            await #expect(throws: JobError.unknownJob("test.missing")) { try await jobs.runNow("test.missing") }
            #expect(await jobs.runDue().isEmpty)
            clock.advance(by: .seconds(300))
            let runs = await jobs.runDue()
            #expect(runs.map(\.outcome) == [.failed])
            #expect(runs.map(\.message) == ["provider down"])
            let status = try #require(try await jobs.statuses().first)
            #expect(status.lastRun?.outcome == .failed)
            #expect(status.lastRun?.message == "provider down")
            #expect(status.nextRunAt == (try instant("2026-01-01T10:10:00Z")))

            for _ in 0..<4 {
                clock.advance(by: .seconds(1))
                #expect(try await jobs.runNow("test.failing").trigger == .manual)
            }
            let history = try await jobs.history("test.failing")
            #expect(history.count == 3)
            #expect(history.map(\.trigger) == [.manual, .manual, .manual])
            #expect(try await database.sql.count("kindred_job_runs") == 3)
            // A manual run leaves the schedule alone.
            #expect(try await jobs.statuses().first?.nextRunAt == (try instant("2026-01-01T10:10:00Z")))
            await jobs.resign()
        }
    }

    @Test(arguments: Backend.all)
    func exactlyOneOfTwoSchedulersOnOneDatabaseRunsAJob(backend: Backend) async throws {
        try await withMigratedDatabase(backend) { database in
            let other = try await openSecondHandle(database)
            let clock = TestClock(start: try instant("2026-01-01T10:00:00Z"))
            let tally = Tally()
            let a = scheduler(database, clock)
            let b = scheduler(other, clock)
            for (name, instance) in [("a", a), ("b", b)] {
                try instance.register(Job("test.minutely", schedule: "* * * * *") { _ in tally.add(name); return name })
            }
            #expect(await a.runDue().isEmpty)  // a leads from here on
            clock.advance(by: .seconds(60))
            async let fromA = a.runDue()
            async let fromB = b.runDue()
            let (runsA, runsB) = await (fromA, fromB)
            #expect(runsA.count == 1)
            #expect(runsB.isEmpty)
            for _ in 0..<3 {
                clock.advance(by: .seconds(60))
                async let nextA = a.runDue()
                async let nextB = b.runDue()
                _ = await (nextA, nextB)
            }
            #expect(tally.all == ["a": 4])

            // The leader stops: the other takes over on its next tick. On PostgreSQL the lock
            // goes when the resigned session's backend exits, shortly after the client has gone.
            await a.resign()
            if backend == .postgresql { try await Self.waitForNoAdvisoryLock(on: database) }
            clock.advance(by: .seconds(60))
            #expect(await b.runDue().map(\.message) == ["b"])
            #expect(await a.runDue().isEmpty)
            #expect(tally.all == ["a": 4, "b": 1])
            await a.resign()
            await b.resign()
            await other.close()
        }
    }

    /// Waits (up to 20 s) until no session holds an advisory lock on the test database.
    static func waitForNoAdvisoryLock(on database: Database) async throws {
        let started = ContinuousClock.now
        while ContinuousClock.now - started < .seconds(20) {
            let held = try await database.sql.raw("""
                SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory'
                  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                """).first()?.decode(column: "n", as: Int.self)
            if held == 0 { return }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test func postgresLeaderHoldsAnAdvisoryLockOnItsOwnConnection() async throws {
        guard Backend.all.contains(.postgresql) else { return }
        try await withMigratedDatabase(.postgresql) { database in
            let clock = TestClock(start: try instant("2026-01-01T10:00:00Z"))
            let jobs = scheduler(database, clock)
            _ = await jobs.runDue()
            let lockHolders = try await database.sql.raw("""
                SELECT count(*) AS n FROM pg_locks
                WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()
                  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                """).first()?.decode(column: "n", as: Int.self)
            #expect(lockHolders == 1)
            await jobs.resign()
            // Resigning ends the lock's session; PostgreSQL releases the lock when that backend
            // exits, shortly after the client has gone (late on a loaded machine).
            var after: Int?
            let resigned = ContinuousClock.now
            repeat {
                after = try await database.sql.raw("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())")
                    .first()?.decode(column: "n", as: Int.self)
                if after != 0 { try await Task.sleep(for: .milliseconds(20)) }
            } while after != 0 && ContinuousClock.now - resigned < .seconds(20)
            #expect(after == 0)
        }
    }

    @Test func sqliteLeaseExpiresWhenTheLeaderStopsRenewing() async throws {
        try await withMigratedDatabase(.sqlite) { database in
            let other = try await openSecondHandle(database)
            let clock = TestClock(start: try instant("2026-01-01T10:00:00Z"))
            let a = scheduler(database, clock, lease: .seconds(60))
            let b = scheduler(other, clock, lease: .seconds(60))
            for instance in [a, b] { try instance.register(Job("test.noop", schedule: "@daily") { _ in "" }) }
            #expect(await a.leadership.acquire())
            #expect(await !b.leadership.acquire())
            clock.advance(by: .seconds(61))  // a stopped ticking (crashed) and its lease ran out
            #expect(await b.leadership.acquire())
            #expect(await !a.leadership.acquire())
            await other.close()
        }
    }

    @Test func registrationRefusesDuplicatesAndBadDefinitions() throws {
        #expect(throws: JobError.invalidName("Bad Name")) { try Job("Bad Name", schedule: "@daily") { _ in "" } }
        #expect(throws: JobError.unknownTimeZone("Mars/Olympus")) {
            try Job("a.b", schedule: "@daily", timeZone: "Mars/Olympus") { _ in "" }
        }
        #expect(throws: JobError.invalidSchedule(name: "a.b", .wrongFieldCount(1))) { try Job("a.b", schedule: "daily") { _ in "" } }
    }

    @Test func pagingStopsAtAShortPageAndAtItsLimit() async throws {
        try await withMigratedDatabase(.sqlite) { database in
            let context = JobContext(
                name: "t", trigger: .manual, scheduledFor: nil, database: database, clock: TestClock(), logger: platformLogger
            )
            var remaining = 1_250
            let total = try await context.forEachPage(limit: 500) { limit in
                let page = min(limit, remaining)
                remaining -= page
                return page
            }
            #expect(total == 1_250)
            await #expect(throws: JobError.tooManyPages(3)) {
                try await context.forEachPage(limit: 10, maxPages: 3) { $0 }
            }
        }
    }
}
