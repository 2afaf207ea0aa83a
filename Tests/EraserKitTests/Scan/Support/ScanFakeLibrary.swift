import Foundation
import Synchronization
import Testing

@testable import EraserKit

/// A `PhotoLibrary` for scan tests: assets made on demand by index (so 50 000 of them cost no
/// memory), listed in index order, every `assets(offset:limit:)` call logged. A test that forgot
/// to give it assets, or a scan that calls a method the scan must never call (hide, delete, …),
/// records a test failure and gets an error.
final class ScanFakeLibrary: PhotoLibrary {
    /// One `assets(offset:limit:)` call and how many assets it returned.
    struct ListCall: Equatable, Sendable {
        var offset: Int
        var limit: Int
        var returned: Int
    }

    private let count: Int?
    private let make: @Sendable (Int) -> PhotoAsset
    private let index: @Sendable (AssetID) -> Int?
    private let log = Mutex<[ListCall]>([])

    /// An unconfigured library: every call fails the test.
    init() {
        count = nil
        make = { _ in PhotoAsset(id: AssetID(rawValue: "unconfigured"), mediaType: .photo, path: "", captureDate: CaptureDate(date: .distantPast, source: .fileTime), byteCount: 0) }
        index = { _ in nil }
    }

    /// A library of `count` assets, the `n`th made by `make(n)`; `index` maps an id back to `n`.
    init(count: Int, make: @escaping @Sendable (Int) -> PhotoAsset, index: @escaping @Sendable (AssetID) -> Int?) {
        self.count = count
        self.make = make
        self.index = index
    }

    /// A library of these assets, in this order.
    convenience init(assets: [PhotoAsset]) {
        let byID = Dictionary(uniqueKeysWithValues: assets.enumerated().map { ($1.id, $0) })
        self.init(count: assets.count, make: { assets[$0] }, index: { byID[$0] })
    }

    /// Every listing call so far.
    var listCalls: [ListCall] { log.withLock { $0 } }

    var access: LibraryAccess { .full }

    private func configuredCount(_ method: String) throws(EraserKitError) -> Int {
        guard let count else {
            Issue.record("ScanFakeLibrary.\(method) called, but the test gave the library no assets")
            throw .library(.missingRoot("unconfigured ScanFakeLibrary"))
        }
        return count
    }

    func assetCount() throws(EraserKitError) -> Int { try configuredCount("assetCount()") }

    func assets(offset: Int, limit: Int) throws(EraserKitError) -> [PhotoAsset] {
        let count = try configuredCount("assets(offset:limit:)")
        guard offset >= 0, limit > 0 else {
            Issue.record("ScanFakeLibrary.assets(offset: \(offset), limit: \(limit)): bad arguments")
            return []
        }
        let end = min(count, offset + limit)
        let assets = offset < end ? (offset..<end).map(make) : []
        log.withLock { $0.append(ListCall(offset: offset, limit: limit, returned: assets.count)) }
        return assets
    }

    func asset(_ id: AssetID) throws(EraserKitError) -> PhotoAsset? {
        let count = try configuredCount("asset(_:)")
        guard let position = index(id), (0..<count).contains(position) else { return nil }
        return make(position)
    }

    func contentsURL(of id: AssetID) throws(EraserKitError) -> URL {
        _ = try configuredCount("contentsURL(of:)")
        return URL(fileURLWithPath: "/scan-fake-library/\(id.rawValue).jpg")
    }

    private func unexpected(_ method: String) -> EraserKitError {
        Issue.record("ScanFakeLibrary.\(method) must not be called by a scan")
        return .library(.outsideAccess("ScanFakeLibrary.\(method)"))
    }

    func hide(_ id: AssetID) throws(EraserKitError) { throw unexpected("hide") }
    func delete(_ id: AssetID) throws(EraserKitError) { throw unexpected("delete") }
    func restorable(_ id: AssetID) throws(EraserKitError) -> RemovedAsset? { throw unexpected("restorable") }
    func removeForVault(_ id: AssetID) throws(EraserKitError) -> RemovedAsset { throw unexpected("removeForVault") }
    func restore(_ removed: RemovedAsset, from contents: URL?) throws(EraserKitError) -> AssetID { throw unexpected("restore") }
}
