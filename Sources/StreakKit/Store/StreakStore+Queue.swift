import Foundation
import GRDB

/// The offline queue: results, achievements and scores waiting for the server, drained in the order
/// they were queued, kept across restarts until the server has them.
extension StreakStore {
    /// The oldest pending uploads, in queue order.
    /// - Parameters:
    ///   - kind: only this kind, when given.
    ///   - limit: at most this many.
    public func pendingUploads(kind: PendingUpload.Kind? = nil, limit: Int = 500) throws(StreakStoreError) -> [PendingUpload] {
        try read("reading the upload queue") { db in
            var sql = "SELECT seq, kind, record_id, enqueued_at, attempts, last_error FROM pending_uploads"
            var arguments: StatementArguments = []
            if let kind {
                sql += " WHERE kind = ?"
                arguments += [kind.rawValue]
            }
            sql += " ORDER BY seq LIMIT ?"
            arguments += [max(0, limit)]
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row throws(StreakStoreError) in try Self.pending(row) }
        }
    }

    /// How many records wait, by kind.
    public func pendingUploadCounts() throws(StreakStoreError) -> [PendingUpload.Kind: Int] {
        try read("counting the upload queue") { db in
            var counts: [PendingUpload.Kind: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT kind, COUNT(*) AS n FROM pending_uploads GROUP BY kind") {
                if let kind = PendingUpload.Kind(rawValue: row["kind"]) { counts[kind] = row["n"] }
            }
            return counts
        }
    }

    /// Removes uploads the server now has.
    public func completeUploads(_ seqs: [Int64]) throws(StreakStoreError) {
        guard !seqs.isEmpty else { return }
        try write("completing uploads") { db in
            for seq in seqs { try db.execute(sql: "DELETE FROM pending_uploads WHERE seq = ?", arguments: [seq]) }
        }
    }

    /// Records a failed try of uploads that stay queued (in their place).
    public func failUploads(_ seqs: [Int64], reason: String) throws(StreakStoreError) {
        guard !seqs.isEmpty else { return }
        try write("recording failed uploads") { db in
            for seq in seqs {
                try db.execute(
                    sql: "UPDATE pending_uploads SET attempts = attempts + 1, last_error = ? WHERE seq = ?",
                    arguments: [String(reason.prefix(500)), seq])
            }
        }
    }

    /// Queues every stored result and achievement again (after signing in to an account that may
    /// not have them: the server ignores what it already holds).
    /// - Returns: how many records were queued.
    @discardableResult
    /// - Throws: `.guestMode` while a guest plays.
    public func requeueEverything(now: Date = Date()) throws(StreakStoreError) -> Int {
        try write("queueing everything") { db in
            if try Self.guestSession(in: db) != nil { throw StreakStoreError.guestMode("a guest's results are not synced") }
            let before = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pending_uploads") ?? 0
            for id in try String.fetchAll(db, sql: "SELECT id FROM results ORDER BY local_day, recorded_at, id") {
                try Self.enqueue(.result, id, now: now, in: db)
            }
            for category in try String.fetchAll(db, sql: "SELECT category FROM achievements ORDER BY category") {
                try Self.enqueue(.achievement, "achievement.\(category)", now: now, in: db)
            }
            return (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pending_uploads") ?? 0) - before
        }
    }

    // MARK: - Inside a transaction

    /// Queues a record unless it already waits (it keeps its place and is uploaded as it then stands),
    /// or a guest is playing (a guest's records stay on the device: nothing is queued).
    static func enqueue(_ kind: PendingUpload.Kind, _ recordID: String, now: Date, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO pending_uploads (kind, record_id, enqueued_at)
                SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM guest_session)
                ON CONFLICT (kind, record_id) DO NOTHING
                """,
            arguments: [kind.rawValue, recordID, StoredDate.text(now)])
    }

    private static func pending(_ row: Row) throws(StreakStoreError) -> PendingUpload {
        let seq: Int64 = row["seq"]
        let kindText: String = row["kind"]
        let enqueuedText: String = row["enqueued_at"]
        guard let kind = PendingUpload.Kind(rawValue: kindText), let enqueuedAt = StoredDate.date(enqueuedText) else {
            throw .corruptRow(table: "pending_uploads", id: String(seq), reason: "kind \(kindText) at \(enqueuedText)")
        }
        return PendingUpload(
            seq: seq, kind: kind, recordID: row["record_id"], enqueuedAt: enqueuedAt, attempts: row["attempts"],
            lastError: row["last_error"])
    }
}
