#if canImport(Photos)
// Written for iOS/macOS and NOT compiled or run on the Linux machines this project is built on
// (there is no PhotoKit there): the app's `PhotoLibrary`, in place of `FolderPhotoLibrary`.
import CoreLocation
import Foundation
import Photos

/// The Apple `PhotoLibrary`: the user's Photos library through PhotoKit.
///
/// **Blocking: never call it on the main thread.** `PhotoLibrary` is synchronous, and so is this
/// adapter: changes go through `PHPhotoLibrary.performChangesAndWait`, and `contentsURL(of:)`
/// waits on a semaphore while `PHAssetResourceManager` writes the file (it calls back on its own
/// queue, so the wait cannot deadlock off the main thread). On the main thread the UI would
/// freeze — a download from iCloud can take minutes — and the system's delete confirmation could
/// never be shown, so every method that waits checks `dispatchPrecondition(.notOnQueue(.main))`.
/// The scan engine and `EraserDevice`'s flows run on their own tasks; the UI calls them there.
///
/// **Access.** `.authorized` is `.full`. `.limited` (iOS 14+: the user picked photos in the
/// system's picker) is `.limited(folders: [])`: PhotoKit names no folders, so for this library an
/// empty list means "the photos the user selected", never the whole library, and every fetch
/// sees only that selection. A denied, restricted or not yet asked status makes `init` throw
/// `.accessDenied`: asking (`PHPhotoLibrary.requestAuthorization(for: .readWrite)`) is the UI's
/// job, before the library is made. (Set `PHPhotoLibraryPreventAutomaticLimitedAccessAlert` in
/// Info.plist, or registering the change observer may show the limited-library alert.)
///
/// **Ids and order.** `AssetID` is the asset's `localIdentifier`, stable for the asset's life on
/// this device. The listing is every photo and video that is not hidden, sorted by
/// `localIdentifier` — the protocol's "stable order by id", the same rule as
/// `FolderPhotoLibrary` — fetched once and kept until PhotoKit reports a change
/// (`PHPhotoLibraryChangeObserver`), so paging through 50,000 assets costs one fetch. A scan that
/// resumes after a change sees the new listing at the same offset, as it would on Linux.
///
/// **Assets.** Photos has no folders a file sits in: `path` is the original file name
/// (`IMG_0001.HEIC`, from the asset's original `PHAssetResource`). `captureDate` is PhotoKit's
/// `creationDate` with source `.photoLibrary` (Photos does not say whether it came from EXIF or
/// the import); without one, the modification date as `.fileTime`. Sizes and location are the
/// asset's; `byteCount` is the original resource's size, read through the resource's `fileSize`
/// key (not public API: used only when the object answers to it), 0 when unknown.
///
/// **Contents.** `contentsURL(of:)` writes the original resource (downloaded from iCloud when
/// needed) to `<cacheFolder>/<id>/<name>`: edits made in Photos are not in it, and a Live
/// Photo's video half is not either. The copies of the last `retainedCopies` calls are kept and
/// older ones deleted, so a URL stays readable for at least that many further calls (the scan
/// asks for one batch, at most 50, and reads them before the next).
///
/// `restorable` and the changes (`hide`, `delete`, `removeForVault`, `restore`) are in
/// `PhotoKitLibrary+Changes.swift`.
public final class PhotoKitLibrary: PhotoLibrary, @unchecked Sendable {
    // @unchecked Sendable: `library` and `resources` are thread-safe PhotoKit objects; `listing`
    // and `copies` keep their state behind their own locks; the rest is immutable.

    /// How many `contentsURL(of:)` copies are kept on disk.
    public static let retainedCopies = 128

    let library: PHPhotoLibrary
    let resources: PHAssetResourceManager
    /// Where `contentsURL(of:)` writes the assets' files (inside the app's Caches).
    public let cacheFolder: URL
    let listing: PhotoKitListing
    private let copies: PhotoKitCopies
    private let observer: PhotoKitChangeObserver

    /// The library, when the user gave full or limited access.
    /// - Parameters:
    ///   - cacheFolder: where asset files are written; by default `Caches/ExEraser/PhotoKit`.
    ///   - library: the Photos library (the shared one).
    /// - Throws: `.library(.accessDenied)` when the user has not given read-write access;
    ///   `.fileSystem` when the cache folder cannot be made.
    public init(cacheFolder: URL? = nil, library: PHPhotoLibrary = .shared(),
                resources: PHAssetResourceManager = .default()) throws(EraserKitError) {
        switch PHPhotoLibrary.authorizationStatus(for: .readWrite) {
        case .authorized, .limited: break
        case .denied, .restricted: throw .library(.accessDenied("Photos access is off for Ex-Eraser (Settings › Privacy › Photos)"))
        case .notDetermined: throw .library(.accessDenied("Ex-Eraser has not asked for Photos access yet"))
        @unknown default: throw .library(.accessDenied("an unknown Photos authorization status"))
        }
        let folder = cacheFolder ?? FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
            .appendingPathComponent("ExEraser/PhotoKit", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .library(.fileSystem(path: folder.path, reason: error.localizedDescription))
        }
        self.cacheFolder = folder
        self.library = library
        self.resources = resources
        let listing = PhotoKitListing()
        self.listing = listing
        copies = PhotoKitCopies(limit: Self.retainedCopies)
        observer = PhotoKitChangeObserver { listing.invalidate() }
        library.register(observer)
    }

    deinit {
        library.unregisterChangeObserver(observer)
    }

    /// Read live: `.limited(folders: [])` means the user's selection in the system picker.
    public var access: LibraryAccess {
        PHPhotoLibrary.authorizationStatus(for: .readWrite) == .authorized ? .full : .limited(folders: [])
    }

    // MARK: - Reading

    public func assetCount() throws(EraserKitError) -> Int {
        listing.identifiers().count
    }

    public func assets(offset: Int, limit: Int) throws(EraserKitError) -> [PhotoAsset] {
        guard offset >= 0, limit >= 0 else { throw .library(.invalidPage(offset: offset, limit: limit)) }
        let all = listing.identifiers()
        guard offset < all.count, limit > 0 else { return [] }
        let page = Array(all[offset..<(offset + min(limit, all.count - offset))])
        let fetched = PHAsset.fetchAssets(withLocalIdentifiers: page, options: nil)
        var byID: [String: PHAsset] = [:]
        fetched.enumerateObjects { asset, _, _ in byID[asset.localIdentifier] = asset }
        // An asset deleted since the listing was made is left out of its page.
        return page.compactMap { byID[$0].map(Self.photoAsset) }
    }

    public func asset(_ id: AssetID) throws(EraserKitError) -> PhotoAsset? {
        fetch(id).map(Self.photoAsset)
    }

    /// Writes the asset's original resource into the cache folder and returns the file.
    /// Blocks until PhotoKit has written it: never call on the main thread.
    /// - Throws: `.notFound` for an unknown (or deleted) id; `.unsupportedFormat` for an asset
    ///   without a photo or video resource; `.fileSystem` when PhotoKit cannot write it (no
    ///   network for an iCloud original, no space).
    public func contentsURL(of id: AssetID) throws(EraserKitError) -> URL {
        dispatchPrecondition(condition: .notOnQueue(.main))
        guard let asset = fetch(id) else { throw .library(.notFound(id)) }
        guard let resource = Self.originalResource(of: asset) else { throw .library(.unsupportedFormat(id.rawValue)) }
        let folder = cacheFolder.appendingPathComponent(Self.fileSafe(id.rawValue), isDirectory: true)
        let name = (resource.originalFilename as NSString).lastPathComponent
        let file = folder.appendingPathComponent(name.isEmpty || name.hasPrefix(".") ? "asset" : name)
        do {
            try? FileManager.default.removeItem(at: folder)  // A copy of an older version.
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .library(.fileSystem(path: folder.path, reason: error.localizedDescription))
        }
        let options = PHAssetResourceRequestOptions()
        options.isNetworkAccessAllowed = true
        let resources = self.resources
        let shared = PhotoKitUnchecked(resource)
        let failure = PhotoKitBridge.wait { done in
            resources.writeData(for: shared.value, toFile: file, options: options) { error in done(error) }
        }
        if let failure {
            try? FileManager.default.removeItem(at: folder)
            throw .library(.fileSystem(path: name, reason: failure.localizedDescription))
        }
        for old in copies.add(folder) { try? FileManager.default.removeItem(at: old) }
        return file
    }

    // MARK: - Helpers

    /// The asset with `id`, hidden ones included (deleted ones PhotoKit does not give).
    func fetch(_ id: AssetID) -> PHAsset? {
        let options = PHFetchOptions()
        options.includeHiddenAssets = true
        return PHAsset.fetchAssets(withLocalIdentifiers: [id.rawValue], options: options).firstObject
    }

    /// The asset as `PhotoAsset` (see Assets).
    static func photoAsset(_ asset: PHAsset) -> PhotoAsset {
        let original = originalResource(of: asset)
        let captureDate = asset.creationDate.map { CaptureDate(date: $0, source: .photoLibrary) }
            ?? CaptureDate(date: asset.modificationDate ?? Date(timeIntervalSince1970: 0), source: .fileTime)
        var location: GeoLocation?
        if let place = asset.location, CLLocationCoordinate2DIsValid(place.coordinate) {
            location = GeoLocation(latitude: place.coordinate.latitude, longitude: place.coordinate.longitude,
                                   altitude: place.verticalAccuracy >= 0 ? place.altitude : nil)
        }
        return PhotoAsset(
            id: AssetID(rawValue: asset.localIdentifier), mediaType: asset.mediaType == .video ? .video : .photo,
            path: original.map { ($0.originalFilename as NSString).lastPathComponent } ?? asset.localIdentifier,
            captureDate: captureDate, pixelWidth: asset.pixelWidth > 0 ? asset.pixelWidth : nil,
            pixelHeight: asset.pixelHeight > 0 ? asset.pixelHeight : nil, location: location,
            byteCount: original.flatMap(fileSize) ?? 0)
    }

    /// The asset's original photo or video resource (not the edited rendering, not a Live
    /// Photo's paired video).
    static func originalResource(of asset: PHAsset) -> PHAssetResource? {
        let all = PHAssetResource.assetResources(for: asset)
        let wanted: [PHAssetResourceType] = asset.mediaType == .video ? [.video, .fullSizeVideo] : [.photo, .fullSizePhoto, .alternatePhoto]
        for type in wanted { if let found = all.first(where: { $0.type == type }) { return found } }
        return nil
    }

    /// The resource's size in bytes, when PhotoKit tells it (`fileSize`, read by key).
    static func fileSize(_ resource: PHAssetResource) -> Int64? {
        guard resource.responds(to: NSSelectorFromString("fileSize")) else { return nil }
        return (resource.value(forKey: "fileSize") as? NSNumber)?.int64Value
    }

    /// A local identifier as one folder name (`ABC/L0/001` → `ABC_L0_001`).
    static func fileSafe(_ identifier: String) -> String {
        String(identifier.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
    }
}

/// The sorted identifiers of the visible photos and videos, fetched when first asked for after
/// a change.
final class PhotoKitListing: @unchecked Sendable {
    // @unchecked Sendable: `cached` is only touched under `lock`.
    private let lock = NSLock()
    private var cached: [String]?

    /// The listing, fetched now if a change made the last one stale.
    func identifiers() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return cached }
        let options = PHFetchOptions()
        options.includeHiddenAssets = false
        options.predicate = NSPredicate(format: "mediaType == %d || mediaType == %d",
                                        PHAssetMediaType.image.rawValue, PHAssetMediaType.video.rawValue)
        let result = PHAsset.fetchAssets(with: options)
        var identifiers: [String] = []
        identifiers.reserveCapacity(result.count)
        result.enumerateObjects { asset, _, _ in identifiers.append(asset.localIdentifier) }
        identifiers.sort()
        cached = identifiers
        return identifiers
    }

    /// Forgets the listing (PhotoKit reported a change, or this app made one).
    func invalidate() {
        lock.lock()
        cached = nil
        lock.unlock()
    }
}

/// The folders of the last `limit` copies `contentsURL(of:)` wrote, oldest first.
private final class PhotoKitCopies: @unchecked Sendable {
    // @unchecked Sendable: `folders` is only touched under `lock`.
    private let lock = NSLock()
    private var folders: [URL] = []
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Records `folder` as the newest copy; returns the folders to delete now.
    func add(_ folder: URL) -> [URL] {
        lock.lock()
        defer { lock.unlock() }
        folders.removeAll { $0 == folder }
        folders.append(folder)
        guard folders.count > limit else { return [] }
        let old = Array(folders.prefix(folders.count - limit))
        folders.removeFirst(old.count)
        return old
    }
}

/// Calls `onChange` when PhotoKit reports a change to the library (on PhotoKit's queue).
private final class PhotoKitChangeObserver: NSObject, PHPhotoLibraryChangeObserver, @unchecked Sendable {
    // @unchecked Sendable: the only property is an immutable `@Sendable` closure.
    private let onChange: @Sendable () -> Void

    init(_ onChange: @escaping @Sendable () -> Void) { self.onChange = onChange }

    func photoLibraryDidChange(_ changeInstance: PHChange) { onChange() }
}

/// Waits for PhotoKit's completion handlers.
enum PhotoKitBridge {
    /// Starts `work`, blocks the calling thread until it calls `done`, and returns the error it
    /// passed. Never call on the main thread (checked).
    static func wait(_ work: (@escaping @Sendable ((any Error)?) -> Void) -> Void) -> (any Error)? {
        dispatchPrecondition(condition: .notOnQueue(.main))
        let semaphore = DispatchSemaphore(value: 0)
        let outcome = PhotoKitOutcome()
        work { error in
            outcome.error = error
            semaphore.signal()
        }
        semaphore.wait()
        return outcome.error
    }
}

/// What a completion handler reported.
final class PhotoKitOutcome: @unchecked Sendable {
    // @unchecked Sendable: each property is written once — in a completion handler before the
    // semaphore is signalled, or in a `performChangesAndWait` block — and read only after the
    // wait (or `performChangesAndWait`) has returned, which orders the write before the read.
    var error: (any Error)?
    var identifier: String?
}

/// A PhotoKit object handed to PhotoKit's own blocks.
struct PhotoKitUnchecked<Value>: @unchecked Sendable {
    // @unchecked Sendable: PHAsset and PHAssetResource are immutable snapshots, documented as
    // safe to read from any thread.
    let value: Value
    init(_ value: Value) { self.value = value }
}
#endif
