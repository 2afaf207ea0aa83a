import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// A user's change counter (`streaksync_sync_clocks`): the last change number given out and how
/// many records each collection holds.
///
/// Every write to a user's results or achievements locks this row first, so the user's writes
/// are serialized and commit in the order of their numbers: a pull that has seen number n has
/// seen every change numbered up to n, and `change_seq > cursor` never skips one.
struct StreakSyncClock: Sendable {
    var seq: Int64
    var results: Int64
    var achievements: Int64

    /// The user's counter, created at zero when missing, locked until the transaction ends.
    static func lock(_ userID: String, on sql: any SQLDatabase) async throws -> StreakSyncClock {
        try await sql.insert(into: "streaksync_sync_clocks").columns("user_id", "seq", "results", "achievements")
            .values(SQLBind(userID), SQLBind(0), SQLBind(0), SQLBind(0)).ignoringConflicts().run()
        guard let row = try await sql.first(StreakQueries.syncClockLocked.binding(userID))
        else { throw KindredError.internal }
        return StreakSyncClock(
            seq: try row.decode(column: "seq", as: Int64.self), results: try row.decode(column: "results", as: Int64.self),
            achievements: try row.decode(column: "achievements", as: Int64.self)
        )
    }

    /// Stores the counter back.
    func save(_ userID: String, on sql: any SQLDatabase) async throws {
        try await sql.update("streaksync_sync_clocks").set("seq", to: seq).set("results", to: results)
            .set("achievements", to: achievements).where("user_id", .equal, userID).run()
    }
}

/// What a batch upsert does: which records win (a later `updatedAt` than the stored one, or no
/// stored one), which are ignored, and how many rows are new.
struct StreakSyncPlan: Sendable {
    /// Indexes into the batch of the records to write, in batch order, one per id (the last winner).
    var writes: [Int] = []
    var applied = 0
    var ignored = 0
    var newRows = 0

    /// Plans `batch` (id and `updatedAt` per record) against the stored versions. Records of one
    /// id in one batch apply in order, as if sent one after the other.
    init(_ batch: [(id: String, updatedAt: Int64)], stored: [String: Int64]) {
        var latest = stored
        var winner: [String: Int] = [:]
        for (index, record) in batch.enumerated() {
            if let current = latest[record.id], record.updatedAt <= current {
                ignored += 1
                continue
            }
            if latest[record.id] == nil { newRows += 1 }
            latest[record.id] = record.updatedAt
            winner[record.id] = index
            applied += 1
        }
        writes = winner.values.sorted()
    }

    /// The stored `updated_at` of `ids` of `userID` in `table`.
    static func stored(in table: String, userID: String, ids: Set<String>, on sql: any SQLDatabase) async throws -> [String: Int64] {
        var versions: [String: Int64] = [:]
        for row in try await sql.select().columns("id", "updated_at").from(table)
            .where("user_id", .equal, userID).where("id", .in, Array(ids)).all()
        {
            versions[try row.decode(column: "id", as: String.self)] = try row.decode(column: "updated_at", as: Int64.self)
        }
        return versions
    }
}

/// A pull's position: the last change number the client has seen.
enum StreakCursor {
    /// Parses `cursor` (decimal digits; absent: the beginning).
    /// - Throws: 400 `bad_request`.
    static func parse(_ cursor: String?) throws -> Int64 {
        guard let cursor else { return 0 }
        guard (1...18).contains(cursor.utf8.count), cursor.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let value = Int64(cursor)
        else { throw KindredError.badRequest("malformed cursor") }
        return value
    }

    /// A page size, `fallback` when absent.
    /// - Throws: 400 `bad_request` outside `1...max`.
    static func limit(_ limit: Int?, fallback: Int, max: Int) throws -> Int {
        let limit = limit ?? fallback
        guard (1...max).contains(limit) else { throw KindredError.badRequest("limit must be 1 to \(max)") }
        return limit
    }
}
