import Foundation
import KindredTestSupport
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
