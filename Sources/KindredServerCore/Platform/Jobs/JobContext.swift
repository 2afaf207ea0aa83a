import Foundation
import KindredStore
import Logging
import ServiceLifecycle

/// What a running job is given: the database, the clock, a logger and paging help.
public struct JobContext: Sendable {
    /// The job's name.
    public let name: String
    /// Why it runs.
    public let trigger: JobTrigger
    /// The scheduled time this run stands for (nil for a manual run).
    public let scheduledFor: Date?
    /// The server's database.
    public let database: Database
    /// The server's clock: jobs compare "expired" against `clock.now()`.
    public let clock: any WallClock
    /// Logs with the job's name attached.
    public let logger: Logger

    /// Runs `page` until it handles fewer than `limit` items, so no single statement or
    /// transaction touches an unbounded number of rows.
    ///
    /// Between pages it stops (throwing `JobError.interrupted`) when the server is shutting down.
    /// - Parameters:
    ///   - limit: the most items one page handles (≥ 1).
    ///   - maxPages: a safety stop against a page that never reports less than `limit`.
    ///   - page: handles at most `limit` items and returns how many it handled.
    /// - Returns: the total handled.
    /// - Throws: what `page` throws, `JobError.interrupted`, `JobError.tooManyPages`.
    public func forEachPage(
        limit: Int = 500, maxPages: Int = 10_000, _ page: (_ limit: Int) async throws -> Int
    ) async throws -> Int {
        let limit = max(1, limit)
        var total = 0
        for _ in 0..<maxPages {
            if Task.isCancelled || Task.isShuttingDownGracefully { throw JobError.interrupted }
            let handled = try await page(limit)
            total += handled
            if handled < limit { return total }
        }
        throw JobError.tooManyPages(maxPages)
    }
}

/// Why a job ran.
public enum JobTrigger: String, Sendable, Codable {
    /// Its scheduled time came while the scheduler was running.
    case schedule
    /// Its scheduled time passed while no scheduler was running; caught up once on start.
    case catchUp = "catch-up"
    /// An operator ran it (`kindred jobs run`).
    case manual
}
