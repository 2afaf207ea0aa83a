import Foundation
import Synchronization

/// The photo library on Linux: a folder tree of photos (`.jpg` `.jpeg` `.png` `.heic`) and videos
/// (`.mp4` `.mov` `.m4v`, names matched without regard to case).
///
/// **On disk.** Everything the library keeps is in `.exeraser/` inside the root (mode 0700):
/// ```
/// <root>/2024/summer/IMG_0001.jpg        a visible asset, where the user put it
/// <root>/.exeraser/index.sqlite          the index (GRDB): one row per asset, by id
/// <root>/.exeraser/hidden/<id>/<name>    a hidden asset's file
/// <root>/.exeraser/recently-deleted/<id>/<name>   a deleted asset's file, kept 30 days
/// <root>/.exeraser/tmp/                  restores in progress (emptied on open)
/// ```
/// Names starting with `.` (files and folders) and symbolic links are not part of the library.
/// An index row holds the asset's id, its relative path (for a hidden or deleted asset, the path
/// it had), its state, where its bytes are, the file's device, inode, size and modification time
/// (nanoseconds), a fingerprint (SHA-256 of the size and the first and last 64 KiB) and the
/// metadata `MediaMetadataReader` read (a file whose metadata is unreadable is still listed,
/// with its modification time as capture date; `metadataProblems()` names it).
///
/// **Ids.** New files get a random UUID. Opening (or `refresh()`) walks the folders in sight and
/// matches files with the index (`LibraryScan`): an unchanged file is not read at all; a file
/// renamed or moved within the library keeps its id (same inode and size, or — when it was
/// copied — the same fingerprint); only new and changed files are read and fingerprinted.
/// Between refreshes the index lives in memory: listing never walks the folders.
///
/// **Hide, delete, vault, restore.** `hide` and `delete` move the file (same inode and
/// modification time) into `hidden/` or `recently-deleted/`; `purgeExpired(now:)` deletes what
/// has been in Recently Deleted for 30 days. `removeForVault` deletes the file and forgets the
/// asset. `restore` puts an asset back at its original path with its id, name, bytes and
/// modification time, and refuses with `.pathTaken` when any file is there now. Only visible
/// assets are listed. The index is written before a file is moved out of sight and after it
/// is moved back, so an interrupted move is repaired by the next open's matching.
///
/// **Limited access.** With `.limited(folders:)` only the assets under those folders are walked,
/// listed and changed; any other id gives `.outsideAccess`. The rows of other folders are left
/// untouched, so a full open later still knows them.
///
/// **Concurrency.** `Sendable`: the in-memory index sits behind a `Mutex`, and every call holds
/// it for its whole work (file moves and index writes included), so calls are serialised and
/// never see a half-done change. Open one library per root at a time: a second one sees the
/// first one's changes only after `refresh()`.
public final class FolderPhotoLibrary: PhotoLibrary {
    /// How long an asset stays in Recently Deleted.
    public static let recentlyDeletedRetention: TimeInterval = 30 * 86_400
    /// The library's own folder inside the root.
    public static let folderName = ".exeraser"

    public let root: URL
    public let access: LibraryAccess
    /// The zone EXIF dates without an offset are read in.
    public let timeZone: TimeZone

    let rootPath: String
    let scope: LibraryScope
    let store: LibraryIndexStore
    let reader: MediaMetadataReader
    // Mutex: the in-memory index, shared by every task holding the library (see Concurrency).
    let state: Mutex<LibraryState>

    /// Opens the library at `root`, creating `.exeraser/` on first use, and refreshes the index.
    /// - Throws: `.library(.missingRoot)` when `root` is not a folder; `.outsideAccess` for a
    ///   limited folder that leaves the root; `.fileSystem` when the index cannot be used.
    public init(root: URL, access: LibraryAccess = .full, timeZone: TimeZone = .current) throws(EraserKitError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw .library(.missingRoot(root.path))
        }
        self.root = root.standardizedFileURL
        self.access = access
        self.timeZone = timeZone
        rootPath = self.root.path.count > 1 && self.root.path.hasSuffix("/") ? String(self.root.path.dropLast()) : self.root.path
        reader = MediaMetadataReader(timeZone: timeZone)
        do {
            scope = try LibraryScope(access)
            let own = rootPath + "/" + Self.folderName
            try LibraryFiles.makeFolders(own, privateMode: true)
            for area in ["hidden", "recently-deleted", "tmp"] { try LibraryFiles.makeFolders(own + "/" + area, privateMode: true) }
            try? FileManager.default.removeItem(atPath: own + "/tmp")
            try LibraryFiles.makeFolders(own + "/tmp", privateMode: true)
            store = try LibraryIndexStore(path: own + "/index.sqlite")
            var records: [AssetID: IndexedAsset] = [:]
            for var record in try store.loadAll() {
                record.resolveWallClock(in: timeZone)
                records[record.id] = record
            }
            let scan = LibraryScan(root: rootPath, scope: scope, reader: reader)
            let plan = try scan.plan(records: records)
            try store.apply(upserts: plan.upserts, deletions: plan.deletions)
            for record in plan.upserts { records[record.id] = record }
            for id in plan.deletions { records[id] = nil }
            state = Mutex(LibraryState(records: records, scope: scope, lastRefresh: plan.report))
        } catch {
            throw .library(error)
        }
    }

    /// What the last refresh (the open's, or `refresh()`'s) found.
    public var lastRefresh: LibraryRefresh { state.withLock { $0.lastRefresh } }

    /// Walks the folders in sight again and brings the index up to date (see Ids).
    @discardableResult
    public func refresh() throws(EraserKitError) -> LibraryRefresh {
        try locked { state throws(LibraryError) in
            let plan = try LibraryScan(root: rootPath, scope: scope, reader: reader).plan(records: state.records)
            try store.apply(upserts: plan.upserts, deletions: plan.deletions)
            for record in plan.upserts { state.put(record, scope: scope) }
            for id in plan.deletions { state.drop(id) }
            state.lastRefresh = plan.report
            return plan.report
        }
    }

    // MARK: - Reading

    public func assetCount() throws(EraserKitError) -> Int {
        state.withLock { $0.visible.count }
    }

    public func assets(offset: Int, limit: Int) throws(EraserKitError) -> [PhotoAsset] {
        guard offset >= 0, limit >= 0 else { throw .library(.invalidPage(offset: offset, limit: limit)) }
        return state.withLock { state in
            guard offset < state.visible.count else { return [] }
            let end = offset + min(limit, state.visible.count - offset)
            return state.visible[offset..<end].compactMap { state.records[$0]?.asset }
        }
    }

    public func asset(_ id: AssetID) throws(EraserKitError) -> PhotoAsset? {
        try locked { state throws(LibraryError) in
            guard let record = state.records[id] else { return nil }
            guard scope.contains(record.path) else { throw .outsideAccess(record.path) }
            return record.asset
        }
    }

    /// Where the asset is: visible, hidden or recently deleted; `nil` for an unknown id.
    public func state(of id: AssetID) throws(EraserKitError) -> AssetState? {
        try locked { state throws(LibraryError) in try accessible(id, in: state)?.state }
    }

    public func contentsURL(of id: AssetID) throws(EraserKitError) -> URL {
        try locked { state throws(LibraryError) in
            guard let record = try accessible(id, in: state) else { throw .notFound(id) }
            return URL(fileURLWithPath: absolute(record.storedPath))
        }
    }

    /// What `restore(_:from:)` needs to bring a hidden or deleted asset back (with `nil` contents),
    /// or a visible one after `removeForVault`: the asset, its state and its file's modification
    /// time as the library finds it now.
    public func restorable(_ id: AssetID) throws(EraserKitError) -> RemovedAsset? {
        try locked { state throws(LibraryError) in
            guard let record = try accessible(id, in: state) else { return nil }
            guard let file = try LibraryFiles.identity(absolute(record.storedPath)) else {
                throw .fileSystem(path: record.storedPath, reason: "the file is gone")
            }
            return RemovedAsset(asset: record.asset, modificationDate: file.modificationDate, state: record.state)
        }
    }

    /// The assets in sight whose metadata could not be read (they are listed all the same, with
    /// their file's modification time as capture date), with the reason.
    public func metadataProblems() -> [AssetID: LibraryError] {
        state.withLock { state in
            var problems: [AssetID: LibraryError] = [:]
            for record in state.records.values where scope.contains(record.path) {
                if let problem = record.metadataProblem { problems[record.id] = problem.error(path: record.path) }
            }
            return problems
        }
    }

    // MARK: - Helpers

    /// Runs `body` holding the mutex, turning its `LibraryError` into an `EraserKitError`.
    func locked<T: Sendable>(_ body: (inout LibraryState) throws(LibraryError) -> T) throws(EraserKitError) -> T {
        let result: Result<T, LibraryError> = state.withLock { state in
            do throws(LibraryError) {
                return .success(try body(&state))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let value): return value
        case .failure(let error): throw .library(error)
        }
    }

    /// The record for `id` (`nil` when unknown), refusing one outside the folders in sight.
    func accessible(_ id: AssetID, in state: LibraryState) throws(LibraryError) -> IndexedAsset? {
        guard let record = state.records[id] else { return nil }
        guard scope.contains(record.path) else { throw .outsideAccess(record.path) }
        return record
    }

    /// The absolute path of a path relative to the root.
    func absolute(_ relative: String) -> String { rootPath + "/" + relative }
}
