import Foundation
import KindredTestSupport
import NIOConcurrencyHelpers
import SQLKit
import Testing

@testable import KindredStore

/// A file database's log is checkpointed by the checkpointer's own connection, not inside the
/// writer's commits.
@Suite struct SQLiteCheckpointerTests {
    @Test func theLogIsCopiedIntoTheDatabaseByTheCheckpointerNotByCommits() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.appendingPathComponent("checkpoint.sqlite").path
        let database = try await Database.open(DatabaseConfiguration(url: .sqlite(path: path)))
        do {
            // No connection of the store checkpoints on commit.
            let automatic = try await database.sql.raw("PRAGMA wal_autocheckpoint").first(decodingColumn: "wal_autocheckpoint", as: Int.self)
            #expect(automatic == 0)
            let writerAutomatic = try await database.transaction { session in
                try await session.raw("PRAGMA wal_autocheckpoint").first(decodingColumn: "wal_autocheckpoint", as: Int.self)
            }
            #expect(writerAutomatic == 0)

            try await database.sql.raw("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)").run()
            let sizeBefore = try Self.size(of: path)
            let body = String(repeating: "x", count: 500)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<8 {
                    group.addTask {
                        for n in 0..<250 {
                            try await database.transaction { session in
                                try await session.insert(into: "t").columns("id", "body")
                                    .values(SQLBind(writer * 1_000 + n), SQLBind(body)).run()
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            // Within a few intervals after the last commit, the checkpointer has copied the whole log.
            let afterWrites = database.checkpointStatistics?.checkpoints ?? 0
            var statistics = database.checkpointStatistics
            for _ in 0..<100 {
                if let statistics, statistics.checkpoints > afterWrites, let last = statistics.last, last.logFrames > 0,
                    last.checkpointedFrames == last.logFrames
                {
                    break
                }
                try await Task.sleep(for: .milliseconds(50))
                statistics = database.checkpointStatistics
            }
            let last = try #require(statistics?.last)
            #expect(last.logFrames > 0)
            #expect(last.checkpointedFrames == last.logFrames)
            #expect(statistics?.failures == 0)
            // 2,000 rows of 500 bytes are in the database file itself now, not only in the log.
            #expect(try Self.size(of: path) > sizeBefore + 1_000_000)
        } catch {
            await database.close()
            throw error
        }
        await database.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(try Self.size(of: path) > 1_000_000)
    }

    @Test func anInMemoryDatabaseHasNoCheckpointer() async throws {
        let database = try await Database.open(DatabaseConfiguration(url: .sqliteMemory))
        #expect(database.checkpointStatistics == nil)
        await database.close()
    }

    static func size(of path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }
}

extension SQLiteCheckpointerTests {
    @Test("under writes that never pause, the log still restarts: it stays bounded instead of growing with every write")
    func theLogStaysBoundedUnderContinuousWrites() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.appendingPathComponent("steady.sqlite").path
        var configuration = DatabaseConfiguration(url: .sqlite(path: path))
        configuration.sqliteCheckpointRestartFrames = 64
        let database = try await Database.open(configuration)
        do {
            try await database.sql.raw("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)").run()
            let body = String(repeating: "x", count: 3_000)  // about a page per row
            // Counted, not timed: under a loaded test run the writers may get little CPU. They stop
            // once at least 3,000 rows are in and twelve checkpoints (one per 100 ms tick at most)
            // have held the writer, or after a minute, which only a checkpointer that never holds
            // it takes.
            let written = NIOLockedValueBox(0)
            let deadline = ContinuousClock.now + .seconds(60)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<8 {
                    group.addTask {
                        var n = 0
                        // Eight writers with no pause between transactions: the writer is never idle.
                        while ContinuousClock.now < deadline,
                            written.withLockedValue({ $0 }) < 3_000 || (database.checkpointStatistics?.heldWrites ?? 0) < 12
                        {
                            let id = writer * 1_000_000 + n
                            try await database.transaction { session in
                                try await session.raw("INSERT INTO t (id, body) VALUES (\(bind: id), \(bind: body))").run()
                            }
                            n += 1
                            written.withLockedValue { $0 += 1 }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let rowsWritten = written.withLockedValue { $0 }
            let statistics = try #require(database.checkpointStatistics)
            #expect(statistics.failures == 0)
            #expect(statistics.heldWrites >= 12, "\(statistics)")
            // Each row's commit writes about three pages (4 KiB each) of log: without restarts the
            // file holds all of them; restarted at twelve ticks or more, it is as long as the
            // longest stretch between two restarts (about a twelfth of the writes when they are
            // spread evenly, measured: 17 MB after 4,383 rows with six restarts).
            let logBytes = try Self.size(of: path + "-wal")
            #expect(logBytes < rowsWritten * 4_096, "log \(logBytes) bytes after \(rowsWritten) rows: \(statistics)")
            let rows = try await database.sql.raw("SELECT COUNT(*) AS n FROM t").first(decodingColumn: "n", as: Int.self)
            #expect(rows == rowsWritten)
        } catch {
            await database.close()
            throw error
        }
        await database.close()
    }
}
