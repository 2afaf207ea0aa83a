import Foundation

extension FolderPhotoLibrary {
    /// The two places inside `.exeraser/` where a library keeps assets out of sight.
    enum Area: String {
        case hidden
        case recentlyDeleted = "recently-deleted"

        var state: AssetState { self == .hidden ? .hidden : .recentlyDeleted }

        /// The folder holding one asset's file, relative to the root.
        func folder(for id: AssetID) -> String { "\(FolderPhotoLibrary.folderName)/\(rawValue)/\(id.rawValue)" }
    }

    /// Moves the file to `.exeraser/hidden/<id>/<name>` (a deleted asset leaves Recently Deleted);
    /// hiding a hidden asset does nothing.
    /// - Throws: `.notFound`, `.outsideAccess`, `.fileSystem`.
    public func hide(_ id: AssetID) throws(EraserKitError) {
        try locked { state throws(LibraryError) in try moveOutOfSight(id, to: .hidden, deletedAt: nil, state: &state) }
    }

    /// Moves the file to `.exeraser/recently-deleted/<id>/<name>`, dated now (a hidden asset
    /// leaves the hidden area); deleting a deleted asset does nothing.
    /// - Throws: `.notFound`, `.outsideAccess`, `.fileSystem`.
    public func delete(_ id: AssetID) throws(EraserKitError) {
        try delete(id, at: Date())
    }

    /// Deletes the asset into Recently Deleted as of `date` (it is purged 30 days later).
    public func delete(_ id: AssetID, at date: Date) throws(EraserKitError) {
        try locked { state throws(LibraryError) in try moveOutOfSight(id, to: .recentlyDeleted, deletedAt: date, state: &state) }
    }

    /// Deletes the asset's file (visible, hidden or recently deleted) and forgets the asset. The
    /// caller must have copied the bytes (from `contentsURL(of:)`) first.
    /// - Returns: what `restore(_:from:)` needs, with the file's modification time and state.
    /// - Throws: `.notFound`, `.outsideAccess`, `.fileSystem`.
    public func removeForVault(_ id: AssetID) throws(EraserKitError) -> RemovedAsset {
        try locked { state throws(LibraryError) in
            guard let record = try accessible(id, in: state) else { throw .notFound(id) }
            let stored = absolute(record.storedPath)
            guard let file = try LibraryFiles.identity(stored) else { throw .fileSystem(path: record.storedPath, reason: "the file is gone") }
            let removed = RemovedAsset(asset: record.asset, modificationDate: file.modificationDate, state: record.state)
            // The file first: a crash before the index is written leaves a row whose file is
            // gone, which the next open drops.
            try LibraryFiles.remove(stored)
            if record.state != .visible { LibraryFiles.removeFolderIfEmpty((stored as NSString).deletingLastPathComponent) }
            try store.apply(upserts: [], deletions: [id])
            state.drop(id)
            return removed
        }
    }

    /// Brings an asset back into sight at its original path, with its id, name, bytes and
    /// modification time. A hidden or recently deleted asset is moved back from the library's
    /// own copy (`contents` is not needed); a removed one is written from `contents` (copied into
    /// `.exeraser/tmp/`, then linked into place, so it appears whole or not at all). Restoring an
    /// asset already back at its path does nothing.
    /// - Throws: `.pathTaken` when any file is at the path now; `.notFound` for a removed asset
    ///   without `contents`; `.alreadyInLibrary` when the id is visible at another path;
    ///   `.outsideAccess` for a path out of sight or not a library path; `.fileSystem`.
    /// - Returns: `removed.asset.id`: this library keeps an asset's id through a restore.
    @discardableResult
    public func restore(_ removed: RemovedAsset, from contents: URL?) throws(EraserKitError) -> AssetID {
        try locked { state throws(LibraryError) in
            let id = removed.asset.id
            if let record = try accessible(id, in: state) {
                switch record.state {
                case .hidden, .recentlyDeleted:
                    // The library still has the bytes: they are the ones put back.
                    try moveBack(record, state: &state)
                case .visible where record.path == removed.asset.path:
                    return id  // Already restored.
                case .visible, .removed:
                    throw .alreadyInLibrary(id)
                }
                return id
            }
            guard let contents else { throw .notFound(id) }
            try restoreCopy(removed, from: contents, state: &state)
            return id
        }
    }

    /// Deletes for good what has been in Recently Deleted for 30 days or more at `now` (in sight).
    /// - Returns: the ids purged.
    @discardableResult
    public func purgeExpired(now: Date = Date()) throws(EraserKitError) -> [AssetID] {
        try locked { state throws(LibraryError) in
            let expired = state.records.values.filter { record in
                guard record.state == .recentlyDeleted, scope.contains(record.path), let deletedAt = record.deletedAt else { return false }
                return now.timeIntervalSince(deletedAt) >= Self.recentlyDeletedRetention
            }.sorted { $0.id < $1.id }
            for record in expired {
                try LibraryFiles.remove(absolute(record.storedPath))
                LibraryFiles.removeFolderIfEmpty(absolute(Area.recentlyDeleted.folder(for: record.id)))
            }
            try store.apply(upserts: [], deletions: expired.map(\.id))
            for record in expired { state.drop(record.id) }
            return expired.map(\.id)
        }
    }

    // MARK: - Moves

    /// Moves an asset's file into `area`, keeping its inode and modification time.
    func moveOutOfSight(_ id: AssetID, to area: Area, deletedAt: Date?, state: inout LibraryState) throws(LibraryError) {
        guard let old = try accessible(id, in: state) else { throw .notFound(id) }
        if old.state == area.state { return }
        let name = (old.path as NSString).lastPathComponent
        var moved = old
        moved.state = area.state
        moved.storedPath = area.folder(for: id) + "/" + name
        moved.deletedAt = deletedAt
        // The index first: if the move never happens, the next open finds the file where it was
        // (same inode) and makes the asset visible again.
        try store.apply(upserts: [moved], deletions: [])
        do {
            try LibraryFiles.makeFolders(absolute(area.folder(for: id)), privateMode: true)
            try LibraryFiles.move(absolute(old.storedPath), to: absolute(moved.storedPath))
        } catch {
            try? store.apply(upserts: [old], deletions: [])
            throw error
        }
        if old.state != .visible { LibraryFiles.removeFolderIfEmpty((absolute(old.storedPath) as NSString).deletingLastPathComponent) }
        try settle(&moved)
        // Moved across file systems (a copy): the index learns the new inode.
        if !old.isUnchanged(moved.identity) { try store.apply(upserts: [moved], deletions: []) }
        state.put(moved, scope: scope)
    }

    /// Moves a hidden or deleted asset's file back to its original path.
    func moveBack(_ record: IndexedAsset, state: inout LibraryState) throws(LibraryError) {
        let destination = absolute(record.path)
        if try LibraryFiles.identity(destination) != nil { throw .pathTaken(record.path) }
        try LibraryFiles.makeFolders((destination as NSString).deletingLastPathComponent)
        // The file first: if the index is not written, the next open finds it back at its path
        // (same inode) and makes the asset visible.
        try LibraryFiles.move(absolute(record.storedPath), to: destination)
        LibraryFiles.removeFolderIfEmpty((absolute(record.storedPath) as NSString).deletingLastPathComponent)
        var back = record
        back.state = .visible
        back.storedPath = record.path
        back.deletedAt = nil
        try settle(&back)
        try store.apply(upserts: [back], deletions: [])
        state.put(back, scope: scope)
    }

    /// Writes a removed asset's bytes back at its original path, with its modification time.
    func restoreCopy(_ removed: RemovedAsset, from contents: URL, state: inout LibraryState) throws(LibraryError) {
        let path = removed.asset.path
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !components.isEmpty, components.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") }),
              LibraryScan.mediaType(ofName: path) != nil else {
            throw .outsideAccess(path)
        }
        guard scope.contains(path) else { throw .outsideAccess(path) }
        let destination = absolute(path)
        if try LibraryFiles.identity(destination) != nil { throw .pathTaken(path) }
        try LibraryFiles.makeFolders((destination as NSString).deletingLastPathComponent)
        // Copied beside the index, then linked into place: the file appears whole or not at all.
        let temporary = absolute("\(Self.folderName)/tmp/\(UUID().uuidString.lowercased())")
        defer { try? LibraryFiles.remove(temporary) }
        try LibraryFiles.copy(contents.path, to: temporary, modificationNanos: FileIdentity.nanos(removed.modificationDate))
        try LibraryFiles.move(temporary, to: destination)
        let asset = removed.asset
        var record = IndexedAsset(
            id: asset.id, path: path, state: .visible, storedPath: path, device: 0, inode: 0, size: 0,
            modificationNanos: 0, fingerprint: try LibraryFiles.fingerprint(destination), mediaType: asset.mediaType,
            captureDate: asset.captureDate, pixelWidth: asset.pixelWidth, pixelHeight: asset.pixelHeight,
            location: asset.location)
        if asset.captureDate.source == .exifLocal {
            // The wall clock the date was read from, in this library's zone.
            record.wallClockSeconds = asset.captureDate.date.timeIntervalSince1970
                + Double(timeZone.secondsFromGMT(for: asset.captureDate.date))
        }
        try settle(&record)
        try store.apply(upserts: [record], deletions: [])
        state.put(record, scope: scope)
    }

    /// Records the stored file's device, inode, size and modification time after a move.
    func settle(_ record: inout IndexedAsset) throws(LibraryError) {
        guard let file = try LibraryFiles.identity(absolute(record.storedPath)) else {
            throw .fileSystem(path: record.storedPath, reason: "the file vanished after it was moved")
        }
        record.identity = file
    }
}
