import Foundation
import GRDB

extension Vault {
    /// The longest original id accepted, in UTF-8 bytes.
    public static let maximumOriginalIDLength = 1024

    /// Vaults a copy of the file at `file`: its bytes encrypted into `media/`, a thumbnail for a
    /// photo in JPEG or PNG, and a row with the sealed metadata. The original is not touched;
    /// remove it only after this returns (see "Crash safety").
    ///
    /// Metadata the caller leaves out is taken from the file: `originalPath` (its path),
    /// `originalName` (its name) and `modifiedAt` (its modification time). A photo whose
    /// thumbnail cannot be made (HEIC, a damaged file) is vaulted without one; videos, events
    /// and messages never have one (there is no video decoder on Linux).
    /// - Parameters:
    ///   - file: a regular file; read 1 MiB at a time, so any size works.
    ///   - item: what the item is and where it came from.
    ///   - now: the vaulting time (`created_at`).
    /// - Returns: the new item.
    /// - Throws: `VaultError.invalidInput` for an empty or over-long original id or a path that is
    ///   not a regular file, `.fileSystem` when a file cannot be read or written, `.database`.
    @discardableResult
    public func add(file: URL, item: VaultItemInput, now: Date = Date()) throws(EraserKitError) -> VaultItem {
        try Self.check(item)
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        } catch {
            throw .vault(.fileSystem(path: file.path, reason: "cannot read its attributes: \(error.localizedDescription)"))
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw .vault(.invalidInput("\(file.path) is not a regular file"))
        }
        var input = item
        input.metadata.originalPath = input.metadata.originalPath ?? file.path
        input.metadata.originalName = input.metadata.originalName ?? file.lastPathComponent
        input.metadata.modifiedAt = input.metadata.modifiedAt ?? attributes[.modificationDate] as? Date
        let id = VaultItemID.make()
        let media = folder.appendingPathComponent(Self.mediaPath(id))
        let byteCount = try VaultFileIO.encrypt(file: file, to: media, associatedData: VaultCiphers.associatedData(.media, id),
                                                with: ciphers.streaming)
        return try finishAdding(id: id, input: input, byteCount: byteCount, now: now) { () throws(EraserKitError) in
            try thumbnails.thumbnail(ofFile: file)
        }
    }

    /// Vaults `bytes` (a calendar event's `VEVENT` text, a message export, a small photo) as
    /// `add(file:item:now:)` does a file; a photo gets a thumbnail when it decodes.
    /// - Throws: as `add(file:item:now:)`.
    @discardableResult
    public func add(bytes: [UInt8], item: VaultItemInput, now: Date = Date()) throws(EraserKitError) -> VaultItem {
        try Self.check(item)
        let id = VaultItemID.make()
        let media = folder.appendingPathComponent(Self.mediaPath(id))
        try VaultFileIO.encrypt(bytes: bytes, to: media, associatedData: VaultCiphers.associatedData(.media, id),
                                with: ciphers.streaming)
        return try finishAdding(id: id, input: item, byteCount: Int64(bytes.count), now: now) { () throws(EraserKitError) in
            try thumbnails.thumbnail(of: bytes)
        }
    }

    /// After the media file is in place: the thumbnail (photos), then the row. On failure the
    /// files written so far are removed.
    private func finishAdding(id: VaultItemID, input: VaultItemInput, byteCount: Int64, now: Date,
                              makeThumbnail: () throws(EraserKitError) -> Thumbnail) throws(EraserKitError) -> VaultItem {
        let media = folder.appendingPathComponent(Self.mediaPath(id))
        let thumbnailFile = folder.appendingPathComponent(Self.thumbnailPath(id))
        let removeFiles = {
            try? VaultFileIO.remove(media)
            try? VaultFileIO.remove(thumbnailFile)
        }
        var hasThumbnail = false
        let record: VaultItemRecord
        do {
            if input.type == .photo, let thumbnail = try? makeThumbnail() {
                try VaultFileIO.encrypt(bytes: thumbnail.jpeg, to: thumbnailFile,
                                        associatedData: VaultCiphers.associatedData(.thumbnail, id), with: ciphers.streaming)
                hasThumbnail = true
            }
            let payload = SealedItemPayload(originalID: input.originalID, byteCount: byteCount, metadata: input.metadata)
            record = VaultItemRecord(
                id: id.rawValue,
                originalID: ciphers.originalIDDigest(input.originalID),
                type: input.type.rawValue,
                filePath: Self.mediaPath(id),
                thumbnailPath: hasThumbnail ? Self.thumbnailPath(id) : nil,
                metadata: try ciphers.sealMetadata(payload, id: id),
                matchType: input.matchType.rawValue,
                createdAt: VaultDates.text(now),
                source: input.source.rawValue)
        } catch {
            removeFiles()
            throw error
        }
        // A crash here leaves the files without a row: the next open deletes them.
        try faults.beforeInsertingRow(id)
        do {
            try write("insert item \(id)") { db in try record.insert(db) }
        } catch {
            removeFiles()
            throw error
        }
        return VaultItem(id: id, originalID: input.originalID, type: input.type, matchType: input.matchType,
                         source: input.source, metadata: input.metadata,
                         createdAt: try VaultDates.date(record.createdAt, what: "item \(id)"),
                         byteCount: byteCount, hasThumbnail: hasThumbnail, coolingOff: nil)
    }

    private static func check(_ item: VaultItemInput) throws(EraserKitError) {
        guard !item.originalID.isEmpty else { throw .vault(.invalidInput("the original id is empty")) }
        guard item.originalID.utf8.count <= maximumOriginalIDLength else {
            throw .vault(.invalidInput("the original id is longer than \(maximumOriginalIDLength) bytes"))
        }
    }
}
