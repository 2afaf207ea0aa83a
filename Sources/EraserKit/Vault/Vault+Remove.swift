import Foundation
import GRDB

extension Vault {
    /// Destroys an item now: its rows (the item and its settled Cooling Off entries), then its
    /// media file and thumbnail. An item waiting in the Cooling Off bin is left to the check
    /// (restore it first): nothing in the bin is destroyed by any other path.
    /// - Throws: `VaultError.notFound`, `.inCoolingOff`, `.database`, `.fileSystem` (the rows are
    ///   gone by then; the next `open` removes the files left behind).
    public func remove(_ id: VaultItemID) throws(EraserKitError) {
        try binLock.withLock { _ throws(EraserKitError) in try removeNow(id) }
    }

    private func removeNow(_ id: VaultItemID) throws(EraserKitError) {
        let (record, pending) = try fetch(id)
        if pending != nil { throw .vault(.inCoolingOff(id.rawValue)) }
        try write("remove item \(id)") { db in
            // Re-checked in the transaction: deleteLater may have run since the fetch.
            let waiting = try CoolingOffRecord
                .filter(CoolingOffRecord.Columns.vaultItemID == id.rawValue
                    && CoolingOffRecord.Columns.status == CoolingOffStatus.pending.rawValue)
                .fetchCount(db)
            if waiting > 0 { throw EraserKitError.vault(.inCoolingOff(id.rawValue)) }
            try CoolingOffRecord.filter(CoolingOffRecord.Columns.vaultItemID == id.rawValue).deleteAll(db)
            _ = try VaultItemRecord.deleteOne(db, key: id.rawValue)
        }
        try destroyFiles(of: record, id: id)
    }

    /// Removes an item's media file and thumbnail (already-missing files are fine) and syncs
    /// their folders.
    func destroyFiles(of record: VaultItemRecord?, id: VaultItemID) throws(EraserKitError) {
        let media = try file(record?.filePath ?? Self.mediaPath(id))
        let thumbnail = try file(record?.thumbnailPath ?? Self.thumbnailPath(id))
        try VaultFileIO.remove(media)
        try VaultFileIO.remove(thumbnail)
        try VaultFileIO.syncFolder(mediaFolder)
        try VaultFileIO.syncFolder(thumbnailFolder)
    }
}
