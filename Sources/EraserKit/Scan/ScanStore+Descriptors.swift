import Foundation
import GRDB

extension ScanStore {
    /// Up to `limit` cached descriptor entries after `asset` (in asset id order), for walking the
    /// cache in pages without holding it all.
    func descriptorPage(after asset: AssetID?, limit: Int) throws(EraserKitError) -> [(AssetID, CachedFaces)] {
        let rows = try read("read the descriptor cache") { db in
            try Row.fetchAll(
                db, sql: "SELECT asset, sealed FROM scan_descriptor WHERE asset > ? ORDER BY asset LIMIT ?",
                arguments: [asset?.rawValue ?? "", limit]
            ).map { ($0["asset"] as String, [UInt8]($0["sealed"] as Data)) }
        }
        var page: [(AssetID, CachedFaces)] = []
        page.reserveCapacity(rows.count)
        for (asset, sealed) in rows {
            let plain = try key.open(sealed, associatedData: Array(asset.utf8), row: "descriptor of \(asset)")
            page.append((AssetID(rawValue: asset), try CachedFaces(decoding: plain)))
        }
        return page
    }

    /// How many assets have cached descriptors.
    func descriptorCount() throws(EraserKitError) -> Int {
        try read("count the descriptor cache") { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM scan_descriptor") ?? 0 }
    }

    /// Replaces every face finding with `matches` and stores `checkpoint`, in one transaction.
    func replaceFaceMatches(_ matches: [ScanMatch], checkpoint: ScanCheckpoint) throws(EraserKitError) {
        try write("replace the face matches") { db in
            try db.execute(sql: "DELETE FROM scan_match WHERE category = ?", arguments: [ScanCategory.face.rawValue])
            for match in matches { try upsert(match, in: db) }
            try saveCheckpoint(checkpoint, in: db)
        }
    }
}
