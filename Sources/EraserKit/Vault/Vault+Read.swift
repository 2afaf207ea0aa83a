import Foundation
import GRDB

extension Vault {
    /// The largest item `contents(_:)` returns in memory; larger ones are read with
    /// `readContents(_:into:)` or exported.
    public static let maximumInMemoryContents = 64 << 20

    /// Every item, oldest first, its metadata decrypted.
    /// - Throws: `VaultError.corrupted` when a row's metadata fails authentication, `.database`.
    public func list() throws(EraserKitError) -> [VaultItem] {
        let (records, pending) = try read("list items") { db in
            let records = try VaultItemRecord.order(VaultItemRecord.Columns.createdAt, VaultItemRecord.Columns.id).fetchAll(db)
            let pending = try CoolingOffRecord.filter(CoolingOffRecord.Columns.status == CoolingOffStatus.pending.rawValue)
                .fetchAll(db)
            return (records, pending)
        }
        var entries: [String: CoolingOffRecord] = [:]
        for entry in pending { if let itemID = entry.vaultItemID { entries[itemID] = entry } }
        var items: [VaultItem] = []
        items.reserveCapacity(records.count)
        for record in records {
            items.append(try item(from: record, coolingOff: entries[record.id]))
        }
        return items
    }

    /// The item `id`.
    /// - Throws: `VaultError.notFound`, `.corrupted`, `.database`.
    public func item(_ id: VaultItemID) throws(EraserKitError) -> VaultItem {
        let (record, entry) = try fetch(id)
        return try item(from: record, coolingOff: entry)
    }

    /// The items vaulted from the original `originalID` (found through its keyed hash).
    public func items(originalID: String) throws(EraserKitError) -> [VaultItem] {
        let digest = ciphers.originalIDDigest(originalID)
        let records = try read("find items by original id") { db in
            try VaultItemRecord.filter(VaultItemRecord.Columns.originalID == digest)
                .order(VaultItemRecord.Columns.createdAt, VaultItemRecord.Columns.id).fetchAll(db)
        }
        var items: [VaultItem] = []
        for record in records { items.append(try item(VaultItemID(rawValue: record.id))) }
        return items
    }

    /// The item's thumbnail, decrypted: a JPEG at most 256 pixels on its long side.
    /// - Throws: `VaultError.notFound`, `.noThumbnail`, `.corrupted` when the file was modified
    ///   or swapped, `.fileSystem` when it cannot be read.
    public func thumbnail(_ id: VaultItemID) throws(EraserKitError) -> [UInt8] {
        let (record, _) = try fetch(id)
        guard let path = record.thumbnailPath else { throw .vault(.noThumbnail(id.rawValue)) }
        var jpeg: [UInt8] = []
        try VaultFileIO.decrypt(try file(path), what: "the thumbnail of item \(id)",
                                associatedData: VaultCiphers.associatedData(.thumbnail, id),
                                with: ciphers.streaming) { (piece) throws(EraserKitError) in jpeg += piece }
        return jpeg
    }

    /// The item's bytes, decrypted, in memory (events, messages, photos).
    /// - Throws: `VaultError.invalidInput` for an item larger than `maximumInMemoryContents`,
    ///   and the errors of `readContents(_:into:)`.
    public func contents(_ id: VaultItemID) throws(EraserKitError) -> [UInt8] {
        let item = try item(id)
        guard item.byteCount <= Self.maximumInMemoryContents else {
            throw .vault(.invalidInput("item \(id) has \(item.byteCount) bytes; export it instead"))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(item.byteCount))
        try readContents(id) { (piece) throws(EraserKitError) in bytes += piece }
        return bytes
    }

    /// Streams the item's decrypted bytes to `body`, about 1 MiB at a time; each piece is
    /// authenticated before it is handed over.
    /// - Throws: `VaultError.notFound`, `.corrupted` (modified, truncated or swapped file),
    ///   `.fileSystem`, and whatever `body` throws.
    public func readContents(_ id: VaultItemID, into body: ([UInt8]) throws(EraserKitError) -> Void) throws(EraserKitError) {
        let (record, _) = try fetch(id)
        guard let path = record.filePath else {
            throw .vault(.corrupted(what: "item \(id)", reason: "its row has no file"))
        }
        try VaultFileIO.decrypt(try file(path), what: "the file of item \(id)",
                                associatedData: VaultCiphers.associatedData(.media, id), with: ciphers.streaming, into: body)
    }

    /// Decrypts the item into `directory` under its original name (or its id when it has none),
    /// with its original modification time. The file appears only once it is complete and
    /// authenticated.
    /// - Returns: the written file.
    /// - Throws: `VaultError.exportTargetExists` when that name is taken, and the errors of
    ///   `readContents(_:into:)`.
    @discardableResult
    public func export(_ id: VaultItemID, into directory: URL) throws(EraserKitError) -> URL {
        let item = try item(id)
        let destination = directory.appendingPathComponent(Self.exportName(item))
        if FileManager.default.fileExists(atPath: destination.path) {
            throw .vault(.exportTargetExists(destination.path))
        }
        try VaultFileIO.write(destination) { (output) throws(EraserKitError) in
            try readContents(id) { (piece) throws(EraserKitError) in try output.write(piece) }
        }
        if let modified = item.metadata.modifiedAt {
            do {
                try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: destination.path)
            } catch {
                throw .vault(.fileSystem(path: destination.path, reason: "cannot set its modification time: \(error.localizedDescription)"))
            }
        }
        return destination
    }

    /// A safe file name for an export: the original's last path component, or the item id.
    static func exportName(_ item: VaultItem) -> String {
        let name = (item.metadata.originalName ?? "").split(separator: "/").last.map(String.init) ?? ""
        if name.isEmpty || name == "." || name == ".." || name.hasPrefix(".") || name.utf8.contains(0) {
            return item.id.rawValue
        }
        return name
    }

    // MARK: - Rows

    /// The item's row and its pending Cooling Off entry.
    func fetch(_ id: VaultItemID) throws(EraserKitError) -> (VaultItemRecord, CoolingOffRecord?) {
        let found = try read("read item \(id)") { db -> (VaultItemRecord, CoolingOffRecord?)? in
            guard let record = try VaultItemRecord.fetchOne(db, key: id.rawValue) else { return nil }
            let entry = try CoolingOffRecord
                .filter(CoolingOffRecord.Columns.vaultItemID == id.rawValue
                    && CoolingOffRecord.Columns.status == CoolingOffStatus.pending.rawValue)
                .fetchOne(db)
            return (record, entry)
        }
        guard let found else { throw .vault(.notFound(id.rawValue)) }
        return found
    }

    /// An item from its row, its metadata opened.
    func item(from record: VaultItemRecord, coolingOff: CoolingOffRecord?) throws(EraserKitError) -> VaultItem {
        let id = VaultItemID(rawValue: record.id)
        let what = "item \(id)"
        guard let sealed = record.metadata else { throw .vault(.corrupted(what: what, reason: "it has no metadata")) }
        let payload = try ciphers.openMetadata(sealed, id: id)
        guard let type = VaultItemType(rawValue: record.type), let matchType = VaultMatchType(rawValue: record.matchType),
              let source = VaultSource(rawValue: record.source) else {
            throw .vault(.corrupted(what: what, reason: "its type, match type or source is unknown"))
        }
        return VaultItem(id: id, originalID: payload.originalID, type: type, matchType: matchType, source: source,
                         metadata: payload.metadata, createdAt: try VaultDates.date(record.createdAt, what: what),
                         byteCount: payload.byteCount, hasThumbnail: record.thumbnailPath != nil,
                         coolingOff: try coolingOff.map { (entry) throws(EraserKitError) in try self.entry(from: entry) })
    }

    /// A Cooling Off entry from its row.
    func entry(from record: CoolingOffRecord) throws(EraserKitError) -> CoolingOffEntry {
        let what = "Cooling Off entry \(record.id)"
        guard let status = CoolingOffStatus(rawValue: record.status) else {
            throw .vault(.corrupted(what: what, reason: "its status \(record.status) is unknown"))
        }
        let deleteAfter = try VaultDates.date(record.deleteAfter, what: what)
        return CoolingOffEntry(
            id: record.id, itemID: record.vaultItemID.map(VaultItemID.init(rawValue:)), deleteAfter: deleteAfter,
            remindAt: schedule.remindAt(deleteAfter: deleteAfter), reminded: record.reminded, status: status,
            createdAt: try record.createdAt.map { (text) throws(EraserKitError) in try VaultDates.date(text, what: what) },
            resolvedAt: try record.resolvedAt.map { (text) throws(EraserKitError) in try VaultDates.date(text, what: what) })
    }
}
