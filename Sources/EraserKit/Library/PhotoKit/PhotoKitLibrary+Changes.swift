#if canImport(Photos)
// Written for iOS/macOS and NOT compiled or run on the Linux machines this project is built on
// (there is no PhotoKit there): the changes of `PhotoKitLibrary`.
import CoreLocation
import Foundation
import Photos

/// `restorable` (a read), then hide, delete, vault and restore through
/// `PHPhotoLibrary.performChangesAndWait`: each blocks until Photos has applied the change (never
/// call on the main thread, checked), and each makes the listing be fetched again.
///
/// **Where PhotoKit cannot keep the protocol's promises.**
/// - A deleted asset goes to Photos' Recently Deleted album, and the system first asks the user
///   to confirm (declining throws `.accessDenied`). PhotoKit can neither list nor undelete what
///   is there, so `restore(_:from: nil)` of a deleted asset throws `.notFound`: whoever wants to
///   restore a deletion must keep the bytes first (`EraserDevice` does: its "delete" is the
///   Vault's Cooling Off, which copies the file before `removeForVault`). The user can still
///   recover it in Photos for 30 days.
/// - `removeForVault` is also a deletion into Recently Deleted (PhotoKit has no other way to take
///   an asset out): the asset stays there, outside the app's reach, for 30 days.
/// - Restoring from `contents` adds a new asset (`PHAssetCreationRequest`) with the same bytes,
///   file name, creation date and location — **under a new `localIdentifier`**, and with the
///   time of the restore as its modification date. `restore` returns that new id (the
///   protocol's contract: the id the asset has now), and the old id answers `nil` from
///   `asset(_:)` from then on; `EraserDevice.restore` reports it and moves the scan's result to it.
extension PhotoKitLibrary {
    /// Hides the asset (Photos' Hidden album), keeping its id; hiding a hidden asset does nothing.
    /// - Throws: `.notFound` (also for an asset outside a limited library's selection);
    ///   `.fileSystem` with PhotoKit's reason.
    public func hide(_ id: AssetID) throws(EraserKitError) {
        guard let asset = fetch(id) else { throw .library(.notFound(id)) }
        if asset.isHidden { return }
        let shared = PhotoKitUnchecked(asset)
        try perform(id, "hide") { PHAssetChangeRequest(for: shared.value).isHidden = true }
    }

    /// Deletes the asset into Photos' Recently Deleted (kept 30 days), after the system asked the
    /// user to confirm. PhotoKit cannot bring it back (see the extension's notes).
    /// - Throws: `.notFound`; `.accessDenied` when the user declined; `.fileSystem`.
    public func delete(_ id: AssetID) throws(EraserKitError) {
        guard let asset = fetch(id) else { throw .library(.notFound(id)) }
        let shared = PhotoKitUnchecked(asset)
        try perform(id, "delete") { PHAssetChangeRequest.deleteAssets([shared.value] as NSArray) }
    }

    /// Deletes the asset for the Vault, the caller having copied its bytes from
    /// `contentsURL(of:)`: into Recently Deleted, after the system's confirmation, as `delete`.
    /// - Returns: the asset as it was, its modification date and whether it was hidden.
    /// - Throws: as `delete`.
    public func removeForVault(_ id: AssetID) throws(EraserKitError) -> RemovedAsset {
        guard let asset = fetch(id) else { throw .library(.notFound(id)) }
        let removed = Self.removalRecord(asset)
        let shared = PhotoKitUnchecked(asset)
        try perform(id, "delete") { PHAssetChangeRequest.deleteAssets([shared.value] as NSArray) }
        return removed
    }

    /// The asset as `removeForVault` would record it now, without changing anything: its
    /// modification date is PhotoKit's (`PHAsset.modificationDate`, else its creation date), not
    /// the time of the copy `contentsURL(of:)` wrote; `nil` for an id PhotoKit does not have.
    public func restorable(_ id: AssetID) throws(EraserKitError) -> RemovedAsset? {
        fetch(id).map(Self.removalRecord)
    }

    /// Brings an asset back into sight. A hidden asset is unhidden (same id); one still visible is
    /// left alone (same id); one PhotoKit no longer has (vaulted or deleted) is added again from
    /// `contents` with its file name, creation date and location, under a new id.
    /// - Returns: the asset's id now: `removed.asset.id`, or the new asset's.
    /// - Throws: `.notFound` when the asset is gone and `contents` is `nil` (a deletion PhotoKit
    ///   cannot undo); `.fileSystem` when `contents` is missing or Photos refuses the file;
    ///   `.accessDenied`.
    @discardableResult
    public func restore(_ removed: RemovedAsset, from contents: URL?) throws(EraserKitError) -> AssetID {
        let id = removed.asset.id
        if let asset = fetch(id) {
            if asset.isHidden {
                let shared = PhotoKitUnchecked(asset)
                try perform(id, "unhide") { PHAssetChangeRequest(for: shared.value).isHidden = false }
            }
            return id
        }
        guard let contents else { throw .library(.notFound(id)) }
        guard FileManager.default.fileExists(atPath: contents.path) else {
            throw .library(.fileSystem(path: contents.path, reason: "the file to restore from is missing"))
        }
        let outcome = PhotoKitOutcome()
        let asset = removed.asset
        try perform(id, "add back") {
            let request = PHAssetCreationRequest.forAsset()
            let options = PHAssetResourceCreationOptions()
            options.originalFilename = (asset.path as NSString).lastPathComponent
            options.shouldMoveFile = false
            request.addResource(with: asset.mediaType == .video ? .video : .photo, fileURL: contents, options: options)
            request.creationDate = asset.captureDate.date
            if let place = asset.location {
                request.location = CLLocation(
                    coordinate: CLLocationCoordinate2D(latitude: place.latitude, longitude: place.longitude),
                    altitude: place.altitude ?? 0, horizontalAccuracy: 0, verticalAccuracy: place.altitude == nil ? -1 : 0,
                    timestamp: asset.captureDate.date)
            }
            outcome.identifier = request.placeholderForCreatedAsset?.localIdentifier
        }
        guard let created = outcome.identifier else {
            throw .library(.fileSystem(path: asset.path, reason: "Photos added the asset but gave no identifier"))
        }
        return AssetID(rawValue: created)
    }

    // MARK: - Helpers

    /// What `restorable` and `removeForVault` record for `asset`.
    static func removalRecord(_ asset: PHAsset) -> RemovedAsset {
        RemovedAsset(
            asset: photoAsset(asset), modificationDate: asset.modificationDate ?? asset.creationDate ?? Date(),
            state: asset.isHidden ? .hidden : .visible)
    }

    /// Runs `changes` in one `performChangesAndWait`, then drops the listing.
    func perform(_ id: AssetID, _ what: String, _ changes: @escaping @Sendable () -> Void) throws(EraserKitError) {
        dispatchPrecondition(condition: .notOnQueue(.main))
        defer { listing.invalidate() }
        do {
            try library.performChangesAndWait(changes)
        } catch {
            throw .library(Self.reason(error, id: id, what: what))
        }
    }

    /// PhotoKit's error as the library's reason: the user's refusals as `.accessDenied`, the rest
    /// as `.fileSystem` with PhotoKit's description.
    static func reason(_ error: any Error, id: AssetID, what: String) -> LibraryError {
        if let photos = error as? PHPhotosError {
            switch photos.code {
            case .userCancelled: return .accessDenied("the request to \(what) \(id) was declined")
            case .accessUserDenied, .accessRestricted: return .accessDenied("Photos access is needed to \(what) \(id)")
            default: break
            }
        }
        return .fileSystem(path: id.rawValue, reason: "PhotoKit could not \(what) it: \(error.localizedDescription)")
    }
}
#endif
