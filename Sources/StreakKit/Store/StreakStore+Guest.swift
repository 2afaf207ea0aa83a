import Foundation
import GRDB

/// A guest playing on this device: since when, and how many results each side holds.
public struct GuestSession: Hashable, Sendable {
    /// When guest mode started.
    public let startedAt: Date
    /// The host's results kept aside, untouched, until the guest leaves.
    public let hostResults: Int
    /// The host's queued uploads kept aside (they wait for the host's next sync).
    public let hostPendingUploads: Int
    /// The guest's results so far (dropped when the guest leaves).
    public let guestResults: Int
}

/// What leaving guest mode did.
public struct GuestModeEnd: Hashable, Sendable {
    /// When guest mode had started.
    public let startedAt: Date
    /// The guest's results, dropped.
    public let discardedResults: Int
    /// The host's results, back.
    public let restoredResults: Int
    /// The host's queued uploads, back in their order.
    public let restoredPendingUploads: Int
}

/// Guest mode: a friend plays on the host's device without touching the host's data
/// (docs/streaksync-device.md, "Guest mode").
///
/// Starting it sets the host's rows aside in the same database (a copy of every table of the
/// player's data, `guest_host_<table>`, and the AUTOINCREMENT counters) and leaves the guest the
/// host's settings and nothing else. While a guest plays nothing is queued for upload (`enqueue`
/// checks `guest_session`) and `StreakDevice` makes no server call. Ending it puts every host row
/// back as it was, the same values in the same columns, and drops the guest's. Both are single
/// transactions, so a crash leaves either the host's data or the guest session, never a mix.
extension StreakStore {
    /// The tables of the player's data that guest mode sets aside and restores, in restore order.
    /// The share inbox's receipts are the device's, not the player's, and stay.
    static let playerTables = ["results", "achievements", "celebrations", "settings", "sync_state", "pending_uploads"]
    /// The tables the guest starts with a copy of (the device's zone and the reminder).
    static let guestInheritedTables: Set<String> = ["settings"]
    /// The AUTOINCREMENT tables whose counters are restored too.
    static let autoincrementTables = ["celebrations", "pending_uploads"]

    /// The guest session, or nil when the host is playing.
    public func guestSession() throws(StreakStoreError) -> GuestSession? {
        try read("reading the guest session") { db in try Self.guestSession(in: db) }
    }

    /// Whether a guest is playing.
    public func isGuestModeActive() throws(StreakStoreError) -> Bool { try guestSession() != nil }

    /// Sets the host's data aside and starts a guest session with the host's settings and no results.
    /// - Throws: `.guestMode` when a guest already plays; `.write`.
    @discardableResult
    public func startGuestMode(now: Date = Date()) throws(StreakStoreError) -> GuestSession {
        try write("starting guest mode") { db in
            if try Self.guestSession(in: db) != nil { throw StreakStoreError.guestMode("a guest is already playing") }
            for table in Self.playerTables {
                try db.execute(sql: "DROP TABLE IF EXISTS \(Self.aside(table))")
                try db.execute(sql: "CREATE TABLE \(Self.aside(table)) AS SELECT * FROM \(table)")
                if !Self.guestInheritedTables.contains(table) { try db.execute(sql: "DELETE FROM \(table)") }
            }
            try db.execute(sql: "DROP TABLE IF EXISTS \(Self.aside("sqlite_sequence"))")
            try db.execute(
                sql: "CREATE TABLE \(Self.aside("sqlite_sequence")) AS SELECT name, seq FROM sqlite_sequence WHERE name IN (\(Self.autoincrementList))")
            try db.execute(sql: "INSERT INTO guest_session (id, started_at) VALUES (1, ?)", arguments: [StoredDate.text(now)])
            guard let session = try Self.guestSession(in: db) else { throw StreakStoreError.write("the guest session was not stored") }
            return session
        }
    }

    /// Drops the guest's data and puts the host's back exactly as it was set aside.
    /// - Throws: `.guestMode` when no guest is playing; `.write` (nothing changes then).
    @discardableResult
    public func endGuestMode() throws(StreakStoreError) -> GuestModeEnd {
        try write("ending guest mode") { db in
            guard let session = try Self.guestSession(in: db) else { throw StreakStoreError.guestMode("no guest is playing") }
            let discarded = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM results") ?? 0
            for table in Self.playerTables {
                let columns = try db.columns(in: Self.aside(table)).map { "\"\($0.name)\"" }.joined(separator: ", ")
                try db.execute(sql: "DELETE FROM \(table)")
                try db.execute(sql: "INSERT INTO \(table) (\(columns)) SELECT \(columns) FROM \(Self.aside(table)) ORDER BY rowid")
                try db.execute(sql: "DROP TABLE \(Self.aside(table))")
            }
            try db.execute(sql: "DELETE FROM sqlite_sequence WHERE name IN (\(Self.autoincrementList))")
            try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) SELECT name, seq FROM \(Self.aside("sqlite_sequence"))")
            try db.execute(sql: "DROP TABLE \(Self.aside("sqlite_sequence"))")
            try db.execute(sql: "DELETE FROM guest_session")
            return GuestModeEnd(
                startedAt: session.startedAt, discardedResults: discarded, restoredResults: session.hostResults,
                restoredPendingUploads: session.hostPendingUploads)
        }
    }

    /// A canonical text of the player's data: every row of every table guest mode sets aside, in key
    /// order, with the AUTOINCREMENT counters. Two stores with equal dumps hold the same data
    /// (the guest-mode round trip is checked with it).
    public func playerDataDump() throws(StreakStoreError) -> String {
        try read("dumping the player's data") { db in
            var lines: [String] = []
            for table in Self.playerTables {
                lines.append("[\(table)]")
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1") { lines.append(row.description) }
            }
            lines.append("[sqlite_sequence]")
            for row in try Row.fetchAll(
                db, sql: "SELECT name, seq FROM sqlite_sequence WHERE name IN (\(Self.autoincrementList)) ORDER BY name")
            {
                lines.append(row.description)
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    // MARK: - Inside a transaction

    /// The guest session in `db`, or nil.
    static func guestSession(in db: Database) throws -> GuestSession? {
        guard let text = try String.fetchOne(db, sql: "SELECT started_at FROM guest_session WHERE id = 1") else { return nil }
        guard let startedAt = StoredDate.date(text) else {
            throw StreakStoreError.corruptRow(table: "guest_session", id: "1", reason: "started_at \(text) is not an instant")
        }
        func count(_ table: String) throws -> Int { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
        return GuestSession(
            startedAt: startedAt, hostResults: try count(aside("results")), hostPendingUploads: try count(aside("pending_uploads")),
            guestResults: try count("results"))
    }

    /// The name of `table`'s host copy during guest mode.
    private static func aside(_ table: String) -> String { "guest_host_\(table)" }

    private static var autoincrementList: String { autoincrementTables.map { "'\($0)'" }.joined(separator: ", ") }
}
