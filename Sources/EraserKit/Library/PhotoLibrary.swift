import Foundation

/// The photo library Ex-Eraser scans and tidies: PhotoKit on iOS, a folder tree on Linux
/// (`FolderPhotoLibrary`). Assets are listed in a stable order, so a scan can walk them in
/// batches and resume at an offset.
public protocol PhotoLibrary: Sendable {
    /// What the user let the app see: the whole library, or a chosen part of it (iOS 17's limited
    /// library). A limited library is reported as such, never treated as the whole one.
    var access: LibraryAccess { get }

    /// How many visible assets there are (hidden and deleted ones are not counted).
    func assetCount() throws(EraserKitError) -> Int

    /// Up to `limit` visible assets from `offset`, in the library's stable order (by id).
    func assets(offset: Int, limit: Int) throws(EraserKitError) -> [PhotoAsset]

    /// The asset with `id`, visible or not, or `nil`.
    func asset(_ id: AssetID) throws(EraserKitError) -> PhotoAsset?

    /// Where the asset's bytes can be read now (a file the caller must not modify).
    func contentsURL(of id: AssetID) throws(EraserKitError) -> URL

    /// Moves the asset out of sight (the hidden album), keeping its id.
    func hide(_ id: AssetID) throws(EraserKitError)

    /// Deletes the asset the way Photos does: into Recently Deleted, kept for 30 days.
    func delete(_ id: AssetID) throws(EraserKitError)

    /// The record `removeForVault` would return for the asset now — the asset, its modification
    /// date as the library knows it and its state — without changing anything, or `nil` for an
    /// unknown id: what the Vault keeps (with the bytes from `contentsURL(of:)`) before the asset
    /// leaves the library. The date is the library's own (the indexed file's time for
    /// `FolderPhotoLibrary`, `PHAsset.modificationDate` for PhotoKit), never the time of the
    /// copy `contentsURL(of:)` wrote.
    func restorable(_ id: AssetID) throws(EraserKitError) -> RemovedAsset?

    /// Takes the asset out of the library for the Vault: the caller has already copied its
    /// bytes; the library forgets the file but can put it back with `restore(_:from:)`.
    func removeForVault(_ id: AssetID) throws(EraserKitError) -> RemovedAsset

    /// Puts a removed, hidden or deleted asset back exactly where and as it was: path, name,
    /// bytes and modification date. `contents` is the file holding its bytes (for a hidden or
    /// recently deleted asset, `nil`: the library still has them).
    /// - Returns: the id the asset has now. `FolderPhotoLibrary` keeps `removed.asset.id`; a
    ///   library that can only add the bytes again as a new asset (PhotoKit) gives the new id,
    ///   and the old one then names nothing. Whoever keeps ids (scan results) must use this one.
    @discardableResult
    func restore(_ removed: RemovedAsset, from contents: URL?) throws(EraserKitError) -> AssetID
}

/// What the user let the app see of the library.
public enum LibraryAccess: Sendable, Equatable, Codable {
    /// Every asset.
    case full
    /// Only the assets under these folders (relative to the library's root).
    case limited(folders: [String])
}

/// A photo or a video.
public enum MediaType: String, Sendable, Codable, CaseIterable {
    case photo
    case video
}

/// An asset's id: stable for the asset's life in the library, also across renames within it.
public struct AssetID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static func < (lhs: AssetID, rhs: AssetID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { rawValue }
}

/// Where an asset's capture date came from.
public enum CaptureDateSource: String, Sendable, Codable {
    /// EXIF `DateTimeOriginal` with its `OffsetTimeOriginal`: an exact instant.
    case exifWithOffset = "exif_with_offset"
    /// EXIF `DateTimeOriginal` without an offset: a wall-clock time, read in the device's zone.
    case exifLocal = "exif_local"
    /// A video container's creation time (QuickTime/MP4 `mvhd`, UTC).
    case container
    /// No date in the file: its modification time.
    case fileTime = "file_time"
    /// The photo library's own date for the asset (PhotoKit's `creationDate`): Photos took it
    /// from the file's metadata or, without one, from when the asset was added; it does not say
    /// which. An exact instant.
    case photoLibrary = "photo_library"
}

/// When an asset was captured, and how that is known.
public struct CaptureDate: Sendable, Equatable, Codable {
    public var date: Date
    public var source: CaptureDateSource
    /// The UTC offset recorded with the date (EXIF `OffsetTimeOriginal`), when there was one.
    public var utcOffsetSeconds: Int?

    public init(date: Date, source: CaptureDateSource, utcOffsetSeconds: Int? = nil) {
        self.date = date
        self.source = source
        self.utcOffsetSeconds = utcOffsetSeconds
    }
}

/// A position on Earth, from EXIF GPS.
public struct GeoLocation: Sendable, Equatable, Codable {
    public var latitude: Double
    public var longitude: Double
    /// Metres above sea level, when recorded.
    public var altitude: Double?

    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }
}

/// One photo or video of the library.
public struct PhotoAsset: Sendable, Equatable, Codable, Identifiable {
    public var id: AssetID
    public var mediaType: MediaType
    /// The path relative to the library's root (`2024/summer/IMG_0001.jpg`).
    public var path: String
    public var captureDate: CaptureDate
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    public var location: GeoLocation?
    public var byteCount: Int64

    public init(
        id: AssetID, mediaType: MediaType, path: String, captureDate: CaptureDate,
        pixelWidth: Int? = nil, pixelHeight: Int? = nil, location: GeoLocation? = nil, byteCount: Int64
    ) {
        self.id = id
        self.mediaType = mediaType
        self.path = path
        self.captureDate = captureDate
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.location = location
        self.byteCount = byteCount
    }
}

/// What the library needs to put an asset back where and as it was.
public struct RemovedAsset: Sendable, Equatable, Codable {
    public var asset: PhotoAsset
    /// The file's modification time when it was removed.
    public var modificationDate: Date
    /// Where the asset was when it was taken out: visible, hidden or recently deleted.
    public var state: AssetState

    public init(asset: PhotoAsset, modificationDate: Date, state: AssetState) {
        self.asset = asset
        self.modificationDate = modificationDate
        self.state = state
    }
}

/// Where an asset is in the library.
public enum AssetState: String, Sendable, Codable {
    case visible
    case hidden
    case recentlyDeleted = "recently_deleted"
    /// Taken out for the Vault.
    case removed
}
