import Foundation
import GRDB

/// What one batch adds to the store, written with its checkpoint in one transaction.
struct ScanBatch: Sendable {
    var matches: [ScanMatch] = []
    var descriptors: [(AssetID, CachedFaces)] = []
    /// Photos the embedder could not read, with the error's description.
    var skipped: [(AssetID, String)] = []
}

extension ScanStore {
    /// Writes a batch's findings and the checkpoint that follows it, atomically: after a crash
    /// or a cancel the store holds either the whole batch and its offset or neither.
    func commit(_ batch: ScanBatch, checkpoint: ScanCheckpoint) throws(EraserKitError) {
        try write("save a batch") { db in
            for match in batch.matches { try upsert(match, in: db) }
            for (asset, faces) in batch.descriptors { try storeDescriptor(try faces.encoded(), for: asset, in: db) }
            for (asset, reason) in batch.skipped { try storeSkipped(reason, for: asset, in: db) }
            try saveCheckpoint(checkpoint, in: db)
        }
    }

    /// Seals (bound to the asset's id) and stores, replacing, an asset's encoded face descriptors.
    func storeDescriptor(_ encoded: [UInt8], for asset: AssetID, in db: Database) throws {
        let sealed = try key.seal(encoded, associatedData: Array(asset.rawValue.utf8))
        try db.execute(
            sql: "INSERT OR REPLACE INTO scan_descriptor (asset, sealed) VALUES (?, ?)",
            arguments: [asset.rawValue, Data(sealed)])
    }

    /// Seals and stores, replacing, why a photo could not be read.
    func storeSkipped(_ reason: String, for asset: AssetID, in db: Database) throws {
        let sealed = try sealJSON(reason, table: "scan_skipped", rowKey: asset.rawValue)
        try db.execute(
            sql: "INSERT OR REPLACE INTO scan_skipped (asset, sealed) VALUES (?, ?)",
            arguments: [asset.rawValue, Data(sealed)])
    }

    /// Inserts a finding, merging it with the item's finding of the same category already there
    /// (the higher confidence, the earlier date), so a re-run batch changes nothing.
    func upsert(_ match: ScanMatch, in db: Database) throws {
        let rowKey = Self.matchRowKey(match.item, match.category)
        var merged = match
        if let data = try Data.fetchOne(
            db, sql: "SELECT sealed FROM scan_match WHERE item = ? AND category = ?",
            arguments: [match.item.key, match.category.rawValue]) {
            let old = try openJSON(ScanMatch.self, [UInt8](data), table: "scan_match", rowKey: rowKey)
            merged.confidence = max(old.confidence, match.confidence)
            merged.date = min(old.date, match.date)
        }
        let sealed = try sealJSON(merged, table: "scan_match", rowKey: rowKey)
        try db.execute(
            sql: "INSERT OR REPLACE INTO scan_match (item, category, sealed) VALUES (?, ?, ?)",
            arguments: [match.item.key, match.category.rawValue, Data(sealed)])
    }

    /// Every finding of every phase.
    func matches() throws(EraserKitError) -> [ScanMatch] {
        let rows = try read("read the matches") { db in
            try Row.fetchAll(db, sql: "SELECT item, category, sealed FROM scan_match ORDER BY item, category")
                .map { (String($0["item"] as String) + "|" + ($0["category"] as String), [UInt8]($0["sealed"] as Data)) }
        }
        var matches: [ScanMatch] = []
        matches.reserveCapacity(rows.count)
        for (rowKey, sealed) in rows {
            matches.append(try openJSON(ScanMatch.self, sealed, table: "scan_match", rowKey: rowKey))
        }
        return matches
    }

    /// Whether `item` has any finding.
    func hasMatch(_ item: ScanItem) throws(EraserKitError) -> Bool {
        try read("read the matches") { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM scan_match WHERE item = ?)", arguments: [item.key]) ?? false
        }
    }

    /// How many photos the face phase could not read.
    func skippedCount() throws(EraserKitError) -> Int {
        try read("count the skipped photos") { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM scan_skipped") ?? 0 }
    }

    /// The photos the face phase could not read, with why.
    func skipped() throws(EraserKitError) -> [(AssetID, String)] {
        let rows = try read("read the skipped photos") { db in
            try Row.fetchAll(db, sql: "SELECT asset, sealed FROM scan_skipped ORDER BY asset")
                .map { ($0["asset"] as String, [UInt8]($0["sealed"] as Data)) }
        }
        var result: [(AssetID, String)] = []
        for (asset, sealed) in rows {
            result.append((AssetID(rawValue: asset), try openJSON(String.self, sealed, table: "scan_skipped", rowKey: asset)))
        }
        return result
    }

    /// A finding row's key in its associated data: `item|category`.
    static func matchRowKey(_ item: ScanItem, _ category: ScanCategory) -> String {
        item.key + "|" + category.rawValue
    }
}
