import Foundation
import GRDB

/// The scan's state in the profile (`scan.db`, GRDB): the checkpoint, the matches, the face
/// descriptor cache, unreadable photos and the review's decisions. Every row's content is sealed
/// with AES-256-GCM under a `ScanStoreKey`, bound to its table and key (a descriptor row to its
/// asset id), so a row moved to another item does not open.
public struct ScanStore: Sendable {
    /// The database's file name in the profile folder.
    public static let fileName = "scan.db"

    let database: DatabaseQueue
    let key: ScanStoreKey
    /// The database file.
    public let url: URL

    /// Opens (creating and migrating) `scan.db` in `profile`.
    /// - Throws: `ScanError.store` when the folder or database cannot be used.
    public init(profile: URL, key: ScanStoreKey) throws(EraserKitError) {
        url = profile.appendingPathComponent(Self.fileName)
        self.key = key
        do {
            try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
            var configuration = Configuration()
            configuration.label = "eraser-scan"
            database = try DatabaseQueue(path: url.path, configuration: configuration)
            try Self.migrator.migrate(database)
            // Owner-only, like every file of a profile.
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        } catch {
            throw .scan(.store("cannot open \(url.path): \(error)"))
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1_scan") { db in
            try db.execute(sql: """
                CREATE TABLE scan_checkpoint (id INTEGER PRIMARY KEY CHECK (id = 1), sealed BLOB NOT NULL);
                CREATE TABLE scan_match (
                    item TEXT NOT NULL, category TEXT NOT NULL, sealed BLOB NOT NULL,
                    PRIMARY KEY (item, category)) WITHOUT ROWID;
                CREATE TABLE scan_descriptor (asset TEXT PRIMARY KEY NOT NULL, sealed BLOB NOT NULL) WITHOUT ROWID;
                CREATE TABLE scan_skipped (asset TEXT PRIMARY KEY NOT NULL, sealed BLOB NOT NULL) WITHOUT ROWID;
                CREATE TABLE scan_decision (item TEXT PRIMARY KEY NOT NULL, sealed BLOB NOT NULL) WITHOUT ROWID;
                """)
        }
        return migrator
    }

    /// Runs a GRDB read, mapping its errors to `ScanError.store` (an `EraserKitError` thrown
    /// inside passes through).
    func read<T>(_ what: String, _ body: (Database) throws -> T) throws(EraserKitError) -> T {
        do {
            return try database.read(body)
        } catch let error as EraserKitError {
            throw error
        } catch {
            throw .scan(.store("cannot \(what): \(error)"))
        }
    }

    /// Runs a GRDB write transaction, mapping its errors like `read`.
    func write<T>(_ what: String, _ body: (Database) throws -> T) throws(EraserKitError) -> T {
        do {
            return try database.write(body)
        } catch let error as EraserKitError {
            throw error
        } catch {
            throw .scan(.store("cannot \(what): \(error)"))
        }
    }

    // MARK: - Sealed JSON rows

    /// Seals a value as JSON for `table`/`rowKey`.
    func sealJSON(_ value: some Encodable, table: String, rowKey: String) throws(EraserKitError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json: Data
        do { json = try encoder.encode(value) } catch { throw .scan(.store("cannot encode a \(table) row: \(error)")) }
        return try key.seal(Array(json), associatedData: Self.associatedData(table, rowKey))
    }

    /// Opens a row sealed by `sealJSON`.
    func openJSON<T: Decodable>(_ type: T.Type, _ sealed: [UInt8], table: String, rowKey: String) throws(EraserKitError) -> T {
        let plain = try key.open(sealed, associatedData: Self.associatedData(table, rowKey), row: "\(table) row \(rowKey)")
        do {
            return try JSONDecoder().decode(type, from: Data(plain))
        } catch {
            throw .scan(.store("a \(table) row does not decode: \(error)"))
        }
    }

    /// `table`, a zero byte, then the row's key.
    static func associatedData(_ table: String, _ rowKey: String) -> [UInt8] {
        Array(table.utf8) + [0] + Array(rowKey.utf8)
    }

    // MARK: - Checkpoint

    /// The scan's checkpoint, or `nil` when the profile has no scan.
    func checkpoint() throws(EraserKitError) -> ScanCheckpoint? {
        let sealed = try read("read the checkpoint") { db in
            try Row.fetchOne(db, sql: "SELECT sealed FROM scan_checkpoint WHERE id = 1").map { [UInt8]($0["sealed"] as Data) }
        }
        guard let sealed else { return nil }
        return try openJSON(ScanCheckpoint.self, sealed, table: "scan_checkpoint", rowKey: "1")
    }

    /// Writes the checkpoint inside a transaction.
    func saveCheckpoint(_ checkpoint: ScanCheckpoint, in db: Database) throws {
        let sealed = try sealJSON(checkpoint, table: "scan_checkpoint", rowKey: "1")
        try db.execute(sql: "INSERT OR REPLACE INTO scan_checkpoint (id, sealed) VALUES (1, ?)", arguments: [Data(sealed)])
    }

    /// Writes the checkpoint on its own.
    func saveCheckpoint(_ checkpoint: ScanCheckpoint) throws(EraserKitError) {
        try write("save the checkpoint") { db in try saveCheckpoint(checkpoint, in: db) }
    }

    /// Forgets the previous scan (every row) and stores a fresh checkpoint.
    func reset(to checkpoint: ScanCheckpoint) throws(EraserKitError) {
        try write("start a new scan") { db in
            for table in ["scan_match", "scan_descriptor", "scan_skipped", "scan_decision"] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
            try saveCheckpoint(checkpoint, in: db)
        }
    }
}
