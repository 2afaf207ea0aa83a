import Foundation
import GRDB

/// A decision as stored: what the user chose and whether the glue has carried it out.
struct StoredDecision: Sendable, Equatable, Codable {
    var decision: ReviewDecision
    var executed: Bool
}

extension ScanStore {
    /// Every decision, by item.
    func decisions() throws(EraserKitError) -> [ScanItem: StoredDecision] {
        let rows = try read("read the decisions") { db in
            try Row.fetchAll(db, sql: "SELECT item, sealed FROM scan_decision")
                .map { ($0["item"] as String, [UInt8]($0["sealed"] as Data)) }
        }
        var decisions: [ScanItem: StoredDecision] = [:]
        for (key, sealed) in rows {
            guard let item = ScanItem(key: key) else { throw .scan(.store("a decision has the unknown item key \(key)")) }
            decisions[item] = try openJSON(StoredDecision.self, sealed, table: "scan_decision", rowKey: key)
        }
        return decisions
    }

    /// Stores (replacing) an item's decision.
    func saveDecision(_ decision: StoredDecision, for item: ScanItem) throws(EraserKitError) {
        try write("save a decision") { db in try storeDecision(decision, for: item, in: db) }
    }

    /// Seals and stores, replacing, an item's decision in the open transaction.
    private func storeDecision(_ decision: StoredDecision, for item: ScanItem, in db: Database) throws {
        let sealed = try sealJSON(decision, table: "scan_decision", rowKey: item.key)
        try db.execute(
            sql: "INSERT OR REPLACE INTO scan_decision (item, sealed) VALUES (?, ?)",
            arguments: [item.key, Data(sealed)])
    }

    /// Stores a manual finding.
    func addManual(_ match: ScanMatch) throws(EraserKitError) {
        try write("add an item") { db in try upsert(match, in: db) }
    }
}

extension ScanStore {
    /// After `old` was restored into the library or calendar as `new` (the same id, or a new one
    /// from PhotoKit or EventKit), moves its result there in one transaction: its findings, its
    /// cached face descriptors and unreadable-photo row (a rethreshold then finds it under `new`),
    /// and its decision, which becomes a "keep" not carried out (the user took the item back).
    /// - Returns: whether `old` was a result of the scan (nothing changes when it was not).
    func restored(_ old: ScanItem, as new: ScanItem) throws(EraserKitError) -> Bool {
        try write("move a restored result") { db in
            let rows = try Row.fetchAll(db, sql: "SELECT category, sealed FROM scan_match WHERE item = ?", arguments: [old.key])
            guard !rows.isEmpty else { return false }
            var matches: [ScanMatch] = []
            for row in rows {
                let category: String = row["category"]
                let sealed: Data = row["sealed"]
                matches.append(try openJSON(ScanMatch.self, [UInt8](sealed), table: "scan_match", rowKey: old.key + "|" + category))
            }
            try db.execute(sql: "DELETE FROM scan_match WHERE item = ?", arguments: [old.key])
            for var match in matches {
                match.item = new
                try upsert(match, in: db)
            }
            if case .asset(let from) = old, case .asset(let to) = new, from != to {
                try moveAssetRows(from, to, in: db)
            }
            try db.execute(sql: "DELETE FROM scan_decision WHERE item = ?", arguments: [old.key])
            try storeDecision(StoredDecision(decision: .keep, executed: false), for: new, in: db)
            return true
        }
    }

    /// Re-seals an asset's descriptor and skipped rows under its new id (each row is bound to its id).
    private func moveAssetRows(_ from: AssetID, _ to: AssetID, in db: Database) throws {
        if let sealed = try Data.fetchOne(db, sql: "SELECT sealed FROM scan_descriptor WHERE asset = ?", arguments: [from.rawValue]) {
            let plain = try key.open([UInt8](sealed), associatedData: Array(from.rawValue.utf8), row: "descriptor of \(from)")
            try db.execute(sql: "DELETE FROM scan_descriptor WHERE asset = ?", arguments: [from.rawValue])
            try storeDescriptor(plain, for: to, in: db)
        }
        if let sealed = try Data.fetchOne(db, sql: "SELECT sealed FROM scan_skipped WHERE asset = ?", arguments: [from.rawValue]) {
            let reason = try openJSON(String.self, [UInt8](sealed), table: "scan_skipped", rowKey: from.rawValue)
            try db.execute(sql: "DELETE FROM scan_skipped WHERE asset = ?", arguments: [from.rawValue])
            try storeSkipped(reason, for: to, in: db)
        }
    }
}
