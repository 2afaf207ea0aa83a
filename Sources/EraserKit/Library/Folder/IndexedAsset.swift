import Foundation
import GRDB

/// One row of the folder library's index: an asset, where its bytes are now, what `lstat` said
/// of its file when the library last looked, its fingerprint and the metadata read from it.
struct IndexedAsset: Equatable, Sendable {
    var id: AssetID
    /// The path relative to the root: where the asset is, or was before it was hidden or deleted.
    var path: String
    /// `.visible`, `.hidden` or `.recentlyDeleted` (a removed asset has no row).
    var state: AssetState
    /// Where the bytes are, relative to the root: `path` for a visible asset, else inside
    /// `.exeraser/hidden/<id>/` or `.exeraser/recently-deleted/<id>/`.
    var storedPath: String
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modificationNanos: Int64
    /// `LibraryFiles.fingerprint` of the bytes.
    var fingerprint: String
    var mediaType: MediaType
    var captureDate: CaptureDate
    /// For an `.exifLocal` date, the wall clock (seconds as if UTC), re-read in the open zone.
    var wallClockSeconds: Double?
    var pixelWidth: Int?
    var pixelHeight: Int?
    var location: GeoLocation?
    /// Why the metadata could not be read (`LibraryError.code` and the reason), when it could not.
    var metadataProblem: MetadataProblem?
    /// When the asset went into Recently Deleted.
    var deletedAt: Date?

    struct MetadataProblem: Equatable, Sendable {
        var code: String
        var reason: String

        init(_ error: EraserKitError) {
            switch error {
            case .library(.unreadableMetadata(_, let reason)): (code, self.reason) = ("unreadable_metadata", reason)
            case .library(.unsupportedFormat): (code, reason) = ("unsupported_format", "")
            default: (code, reason) = (error.code, error.message)
            }
        }

        init(code: String, reason: String) {
            self.code = code
            self.reason = reason
        }

        /// The error for the asset at `path`.
        func error(path: String) -> LibraryError {
            code == "unsupported_format" ? .unsupportedFormat(path) : .unreadableMetadata(path: path, reason: reason)
        }
    }

    var identity: FileIdentity {
        get {
            FileIdentity(device: device, inode: inode, size: size, modificationNanos: modificationNanos,
                         isRegularFile: true, isDirectory: false)
        }
        set {
            (device, inode, size, modificationNanos) = (newValue.device, newValue.inode, newValue.size, newValue.modificationNanos)
        }
    }

    /// Whether `file` is the same file, unchanged: same device, inode, size and modification time.
    func isUnchanged(_ file: FileIdentity) -> Bool {
        device == file.device && inode == file.inode && size == file.size && modificationNanos == file.modificationNanos
    }

    var asset: PhotoAsset {
        PhotoAsset(id: id, mediaType: mediaType, path: path, captureDate: captureDate, pixelWidth: pixelWidth,
                   pixelHeight: pixelHeight, location: location, byteCount: size)
    }

    /// Re-reads an `.exifLocal` date in `zone` (the index may have been written in another one).
    mutating func resolveWallClock(in zone: TimeZone) {
        guard captureDate.source == .exifLocal, let wallClockSeconds else { return }
        captureDate.date = ExifDateTime.instant(wallClock: wallClockSeconds, in: zone)
    }
}

extension IndexedAsset: FetchableRecord, PersistableRecord {
    static let databaseTableName = "asset"

    init(row: Row) throws {
        id = AssetID(rawValue: row["id"])
        path = row["path"]
        state = AssetState(rawValue: row["state"]) ?? .visible
        storedPath = row["storedPath"]
        device = UInt64(bitPattern: row["device"])
        inode = UInt64(bitPattern: row["inode"])
        size = row["size"]
        modificationNanos = row["modificationNanos"]
        fingerprint = row["fingerprint"]
        mediaType = MediaType(rawValue: row["mediaType"]) ?? .photo
        captureDate = CaptureDate(
            date: Date(timeIntervalSince1970: row["captureDate"]),
            source: CaptureDateSource(rawValue: row["captureSource"]) ?? .fileTime, utcOffsetSeconds: row["utcOffset"])
        wallClockSeconds = row["wallClock"]
        pixelWidth = row["pixelWidth"]
        pixelHeight = row["pixelHeight"]
        if let latitude: Double = row["latitude"], let longitude: Double = row["longitude"] {
            location = GeoLocation(latitude: latitude, longitude: longitude, altitude: row["altitude"])
        }
        if let code: String = row["problemCode"] { metadataProblem = MetadataProblem(code: code, reason: (row["problemReason"] as String?) ?? "") }
        deletedAt = (row["deletedAt"] as Double?).map { Date(timeIntervalSince1970: $0) }
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id.rawValue
        container["path"] = path
        container["state"] = state.rawValue
        container["storedPath"] = storedPath
        container["device"] = Int64(bitPattern: device)
        container["inode"] = Int64(bitPattern: inode)
        container["size"] = size
        container["modificationNanos"] = modificationNanos
        container["fingerprint"] = fingerprint
        container["mediaType"] = mediaType.rawValue
        container["captureDate"] = captureDate.date.timeIntervalSince1970
        container["captureSource"] = captureDate.source.rawValue
        container["utcOffset"] = captureDate.utcOffsetSeconds
        container["wallClock"] = wallClockSeconds
        container["pixelWidth"] = pixelWidth
        container["pixelHeight"] = pixelHeight
        container["latitude"] = location?.latitude
        container["longitude"] = location?.longitude
        container["altitude"] = location?.altitude
        container["problemCode"] = metadataProblem?.code
        container["problemReason"] = metadataProblem?.reason
        container["deletedAt"] = deletedAt?.timeIntervalSince1970
    }
}

/// The index's SQLite file (`.exeraser/index.sqlite`), through GRDB: one `asset` row per asset
/// the library knows, written in one transaction per change.
struct LibraryIndexStore: Sendable {
    let database: DatabaseQueue
    let path: String

    init(path: String) throws(LibraryError) {
        self.path = path
        do {
            var configuration = Configuration()
            configuration.label = "exeraser-library-index"
            database = try DatabaseQueue(path: path, configuration: configuration)
            try Self.migrator.migrate(database)
        } catch {
            throw .fileSystem(path: path, reason: "cannot open the library index (\(error))")
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1_asset") { db in
            try db.create(table: "asset") { table in
                table.primaryKey("id", .text)
                table.column("path", .text).notNull()
                table.column("state", .text).notNull().check { ["visible", "hidden", "recently_deleted"].contains($0) }
                table.column("storedPath", .text).notNull()
                table.column("device", .integer).notNull()
                table.column("inode", .integer).notNull()
                table.column("size", .integer).notNull()
                table.column("modificationNanos", .integer).notNull()
                table.column("fingerprint", .text).notNull()
                table.column("mediaType", .text).notNull()
                table.column("captureDate", .double).notNull()
                table.column("captureSource", .text).notNull()
                table.column("utcOffset", .integer)
                table.column("wallClock", .double)
                table.column("pixelWidth", .integer)
                table.column("pixelHeight", .integer)
                table.column("latitude", .double)
                table.column("longitude", .double)
                table.column("altitude", .double)
                table.column("problemCode", .text)
                table.column("problemReason", .text)
                table.column("deletedAt", .double)
            }
        }
        return migrator
    }

    /// Every row.
    func loadAll() throws(LibraryError) -> [IndexedAsset] {
        do {
            return try database.read { db in try IndexedAsset.fetchAll(db) }
        } catch {
            throw .fileSystem(path: path, reason: "cannot read the library index (\(error))")
        }
    }

    /// Writes `upserts` and deletes `deletions` in one transaction.
    func apply(upserts: [IndexedAsset], deletions: [AssetID]) throws(LibraryError) {
        guard !upserts.isEmpty || !deletions.isEmpty else { return }
        do {
            try database.write { db in
                for record in upserts { try record.insert(db, onConflict: .replace) }
                for id in deletions { _ = try IndexedAsset.deleteOne(db, key: id.rawValue) }
            }
        } catch {
            throw .fileSystem(path: path, reason: "cannot write the library index (\(error))")
        }
    }
}
