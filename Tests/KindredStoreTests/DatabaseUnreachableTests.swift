@preconcurrency import AsyncKit
import Foundation
import KindredStore
import KindredTestSupport
import NIOCore
import SQLKit
import Testing

/// An outage (a refused or dropped connection, a pool that gave up) is told apart from a
/// statement's own failure, so the server answers 503 `unavailable` rather than 500 `internal`.
@Suite struct DatabaseUnreachableTests {
    @Test func transportAndPoolFailuresAreOutages() {
        #expect(DatabaseUnreachable.matches(IOError(errnoCode: ECONNREFUSED, reason: "connect")))
        #expect(DatabaseUnreachable.matches(IOError(errnoCode: ECONNRESET, reason: "read")))
        #expect(DatabaseUnreachable.matches(ConnectionPoolTimeoutError.connectionRequestTimeout))
        #expect(DatabaseUnreachable.matches(ConnectionPoolError.shutdown))
        #expect(DatabaseUnreachable.matches(ChannelError.ioOnClosedChannel))
        #expect(DatabaseUnreachable.matches(KindredStoreError.connectionFailed("down")))
        #expect(!DatabaseUnreachable.matches(IOError(errnoCode: ENOSPC, reason: "write")))
        #expect(!DatabaseUnreachable.matches(KindredStoreError.queryFailed("syntax")))
        #expect(!DatabaseUnreachable.matches(CancellationError()))
    }

    @Test(.enabled(if: TestDatabases.postgresURL != nil, "needs KINDRED_TEST_POSTGRES_URL"))
    func aTerminatedBackendIsAnOutageAStatementErrorIsNotAndThePoolRecovers() async throws {
        try await TestDatabases.with(.postgresql) { database in
            // A statement's failure (division by zero, SQLSTATE 22012): not an outage.
            do {
                try await database.sql.raw("SELECT 1 / 0").run()
                Issue.record("division by zero succeeded")
            } catch {
                #expect(!DatabaseUnreachable.matches(error), "\(String(reflecting: error))")
            }
            // The server ends the backend under the query (what a shutdown does: 57P01).
            do {
                try await database.sql.raw("SELECT pg_terminate_backend(pg_backend_pid())").run()
                Issue.record("the terminated query succeeded")
            } catch {
                #expect(DatabaseUnreachable.matches(error), "\(String(reflecting: error))")
            }
            // The pool drops the dead connection and opens a new one. The socket's close reaches
            // the pool a moment after the error, so the next statement may still be handed the
            // dead connection: that one failure must be an outage too (503, retry), and the
            // statement after it runs on a fresh connection.
            var answer: Int?
            for _ in 0..<2 where answer == nil {
                do {
                    let row = try await database.sql.raw("SELECT 41 + 1 AS answer").first()
                    answer = try row?.decode(column: "answer", as: Int.self)
                } catch {
                    #expect(DatabaseUnreachable.matches(error), "\(String(reflecting: error))")
                }
            }
            #expect(answer == 42)
        }
    }
}
