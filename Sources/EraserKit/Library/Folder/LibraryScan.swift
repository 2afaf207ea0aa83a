import Foundation

/// What one refresh of the index found (`FolderPhotoLibrary.refresh()`).
public struct LibraryRefresh: Sendable, Equatable {
    /// Photo and video files found in the folders in sight.
    public var scanned = 0
    /// Files whose size, inode and modification time were as indexed: nothing was read.
    public var unchanged = 0
    /// Files found at a new path that kept their id (by inode and size, or by fingerprint).
    public var moved = 0
    /// Files at an indexed path that changed (edited): same id, metadata read again.
    public var changed = 0
    /// New files, given new ids.
    public var added = 0
    /// Indexed assets whose file is gone.
    public var gone = 0
    /// Files whose bytes were read (metadata and fingerprint).
    public var read = 0

    public init() {}
}

/// One refresh: walks the folders in sight, matches what it finds with the index and reads only
/// the files that are new or changed.
///
/// Matching, in order, between the files found and the index's assets in sight (visible ones,
/// and hidden or deleted ones whose stored file is missing — a move the library did not finish):
/// 1. same path, device, inode, size and modification time: unchanged, nothing read;
/// 2. same device, inode and size: moved or renamed; when the modification time changed too,
///    the file is read and must also have the same fingerprint or the same path;
/// 3. the remaining files are read; same fingerprint: moved by a copy;
/// 4. same path: edited in place (saved as a new file);
/// 5. anything else is new and gets a new id; assets left unmatched are gone.
struct LibraryScan {
    let root: String
    let scope: LibraryScope
    let reader: MediaMetadataReader

    /// The changes to write, and the counts.
    struct Plan {
        var upserts: [IndexedAsset] = []
        var deletions: [AssetID] = []
        var report = LibraryRefresh()
    }

    /// A photo or video file found by the walk.
    struct Found {
        let path: String
        let file: FileIdentity
    }

    static let photoExtensions: Set<String> = ["jpg", "jpeg", "png", "heic"]
    static let videoExtensions: Set<String> = ["mp4", "mov", "m4v"]

    /// The media type a file's name promises, or `nil` for a file the library ignores.
    static func mediaType(ofName name: String) -> MediaType? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        return photoExtensions.contains(ext) ? .photo : videoExtensions.contains(ext) ? .video : nil
    }

    func absolute(_ relative: String) -> String { relative.isEmpty ? root : root + "/" + relative }

    /// Every photo and video file in sight: hidden names (a leading `.`, so also `.exeraser`) and
    /// symbolic links are skipped; an allowed folder that does not exist holds nothing.
    func walk() throws(LibraryError) -> [Found] {
        var found: [Found] = []
        var pending = scope.walkRoots.reversed().map { $0 }
        while let folder = pending.popLast() {
            if !folder.isEmpty, try LibraryFiles.identity(absolute(folder))?.isDirectory != true { continue }
            for entry in try LibraryFiles.entries(absolute(folder)).sorted(by: { $0.name < $1.name }).reversed() {
                guard !entry.name.hasPrefix(".") else { continue }
                let relative = folder.isEmpty ? entry.name : folder + "/" + entry.name
                switch entry.kind {
                case .folder:
                    pending.append(relative)
                case .file where Self.mediaType(ofName: entry.name) != nil:
                    if let file = try LibraryFiles.identity(absolute(relative)), file.isRegularFile {
                        found.append(Found(path: relative, file: file))
                    }
                default:
                    break
                }
            }
        }
        return found
    }

    /// Matches the walk with `records` (the whole index) and plans the changes.
    func plan(records: [AssetID: IndexedAsset]) throws(LibraryError) -> Plan {
        var plan = Plan()
        let found = try walk()
        plan.report.scanned = found.count

        // The assets the walk could have found: visible ones in sight, and hidden or deleted
        // ones in sight whose stored file is missing.
        var pool: [AssetID: IndexedAsset] = [:]
        for record in records.values where scope.contains(record.path) {
            if record.state == .visible {
                pool[record.id] = record
            } else if try LibraryFiles.identity(absolute(record.storedPath))?.isRegularFile != true {
                if let moved = try inOtherArea(record) { plan.upserts.append(moved) } else { pool[record.id] = record }
            }
        }

        // 1. Unchanged.
        var visibleByPath: [String: AssetID] = [:]
        for record in pool.values where record.state == .visible { visibleByPath[record.path] = record.id }
        var remaining: [Found] = []
        for file in found {
            if let id = visibleByPath[file.path], let record = pool[id], record.isUnchanged(file.file) {
                pool[id] = nil
                plan.report.unchanged += 1
            } else {
                remaining.append(file)
            }
        }

        // 2. Same inode and size: moved, renamed, or a hide the library did not finish. A rename
        //    keeps the modification time; when it differs the file is read, and it is the same
        //    asset only if its fingerprint or its path is the same (an inode freed by a deleted
        //    file can be reused at once by a new one).
        struct InodeKey: Hashable { let device: UInt64, inode: UInt64, size: Int64 }
        var byInode: [InodeKey: AssetID] = [:]
        for record in pool.values.sorted(by: { $0.id < $1.id }) {
            let key = InodeKey(device: record.device, inode: record.inode, size: record.size)
            if byInode[key] == nil { byInode[key] = record.id }
        }
        var unmatched: [Found] = []
        var read: [(Found, IndexedAsset)] = []
        for file in remaining {
            let key = InodeKey(device: file.file.device, inode: file.file.inode, size: file.file.size)
            guard let id = byInode[key], var record = pool[id] else {
                unmatched.append(file)
                continue
            }
            let oldPath = record.path
            if record.modificationNanos != file.file.modificationNanos {
                plan.report.read += 1
                guard let fresh = try self.read(file, id: id) else { continue }  // Gone since the walk.
                guard fresh.fingerprint == record.fingerprint || record.path == file.path else {
                    var other = fresh
                    other.id = AssetID(rawValue: UUID().uuidString.lowercased())
                    read.append((file, other))
                    continue
                }
                record = fresh
            }
            byInode[key] = nil
            pool[id] = nil
            plan.upserts.append(visible(record, at: file))
            if oldPath == file.path { plan.report.changed += 1 } else { plan.report.moved += 1 }
        }

        // 3–5. Read the rest; match by fingerprint, then by path; new ids for the others.
        for file in unmatched {
            plan.report.read += 1
            if let fresh = try self.read(file, id: AssetID(rawValue: UUID().uuidString.lowercased())) { read.append((file, fresh)) }
        }
        var byFingerprint: [String: [AssetID]] = [:]
        for record in pool.values.sorted(by: { $0.path < $1.path }) { byFingerprint[record.fingerprint, default: []].append(record.id) }
        var afterFingerprint: [(Found, IndexedAsset)] = []
        for (file, fresh) in read {
            if let id = byFingerprint[fresh.fingerprint]?.first, pool[id] != nil {
                byFingerprint[fresh.fingerprint]?.removeFirst()
                pool[id] = nil
                var record = fresh
                record.id = id
                plan.upserts.append(visible(record, at: file))
                plan.report.moved += 1
            } else {
                afterFingerprint.append((file, fresh))
            }
        }
        var byPath: [String: AssetID] = [:]
        for record in pool.values { byPath[record.path] = record.id }
        for (file, fresh) in afterFingerprint {
            var record = fresh
            if let id = byPath.removeValue(forKey: file.path), pool.removeValue(forKey: id) != nil {
                record.id = id
                plan.report.changed += 1
            } else {
                plan.report.added += 1
            }
            plan.upserts.append(visible(record, at: file))
        }

        plan.deletions += pool.keys.sorted()
        plan.report.gone = plan.deletions.count
        return plan
    }

    /// A hidden or deleted asset whose file is in the other area (a move from one to the other
    /// that the index did not record), with its row pointing there.
    func inOtherArea(_ record: IndexedAsset) throws(LibraryError) -> IndexedAsset? {
        let name = (record.path as NSString).lastPathComponent
        for (area, state) in [("hidden", AssetState.hidden), ("recently-deleted", .recentlyDeleted)] where state != record.state {
            let stored = "\(FolderPhotoLibrary.folderName)/\(area)/\(record.id.rawValue)/\(name)"
            guard let file = try LibraryFiles.identity(absolute(stored)), file.isRegularFile else { continue }
            var moved = record
            moved.state = state
            moved.storedPath = stored
            moved.deletedAt = state == .recentlyDeleted ? record.deletedAt ?? Date() : nil
            moved.identity = file
            return moved
        }
        return nil
    }

    /// `record` as a visible asset at the found file's path.
    func visible(_ record: IndexedAsset, at file: Found) -> IndexedAsset {
        var record = record
        record.path = file.path
        record.storedPath = file.path
        record.state = .visible
        record.deletedAt = nil
        record.identity = file.file
        return record
    }

    /// A fresh record for a found file: its metadata (or, when that fails, the media type its name
    /// promises and its modification time, with the problem kept) and its fingerprint; `nil` when
    /// the file is gone since the walk.
    func read(_ file: Found, id: AssetID) throws(LibraryError) -> IndexedAsset? {
        let url = URL(fileURLWithPath: absolute(file.path))
        let fingerprint: String
        do {
            fingerprint = try LibraryFiles.fingerprint(url.path)
        } catch {
            if try LibraryFiles.identity(url.path) == nil { return nil }
            throw error
        }
        var record = IndexedAsset(
            id: id, path: file.path, state: .visible, storedPath: file.path, device: file.file.device,
            inode: file.file.inode, size: file.file.size, modificationNanos: file.file.modificationNanos,
            fingerprint: fingerprint, mediaType: Self.mediaType(ofName: file.path) ?? .photo,
            captureDate: CaptureDate(date: file.file.modificationDate, source: .fileTime))
        do {
            let metadata = try reader.read(contentsOf: url)
            record.mediaType = metadata.mediaType
            record.captureDate = metadata.captureDate(fileModificationDate: file.file.modificationDate)
            record.wallClockSeconds = metadata.wallClockSeconds
            record.pixelWidth = metadata.pixelWidth
            record.pixelHeight = metadata.pixelHeight
            record.location = metadata.location
        } catch {
            if case .library(.fileSystem(let path, let reason)) = error {
                if try LibraryFiles.identity(url.path) == nil { return nil }
                throw .fileSystem(path: path, reason: reason)
            }
            record.metadataProblem = IndexedAsset.MetadataProblem(error)
        }
        return record
    }
}
