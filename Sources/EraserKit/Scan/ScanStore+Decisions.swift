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
        let sealed = try sealJSON(decision, table: "scan_decision", rowKey: item.key)
        try write("save a decision") { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO scan_decision (item, sealed) VALUES (?, ?)",
                arguments: [item.key, Data(sealed)])
        }
    }

    /// Stores a manual finding.
    func addManual(_ match: ScanMatch) throws(EraserKitError) {
        try write("add an item") { db in try upsert(match, in: db) }
    }
}
