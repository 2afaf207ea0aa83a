import Foundation
import KindredTestSupport
import Testing

@testable import EraserKit

@Suite struct FolderPhotoLibraryChangesTests {
    /// A modification time with nanoseconds, to see that moves keep it to the nanosecond.
    static let mtimeNanos: Int64 = 1_650_000_000_123_456_789
    static let path = "2024/summer/IMG_0001.jpg"

    /// A library with the photo at `path` (and another one), and the photo's asset.
    func setUp() throws -> (LibraryFixture, FolderPhotoLibrary, PhotoAsset, [UInt8]) {
        let fixture = try LibraryFixture()
        let bytes = LibraryFixture.photo(tag: "main")
        try fixture.write(Self.path, bytes)
        try fixture.setModificationNanos(Self.path, Self.mtimeNanos)
        try fixture.write("other.png", MediaFixtures.png())
        let library = try fixture.open()
        let asset = try #require(try LibraryFixture.asset(at: Self.path, in: library))
        return (fixture, library, asset, bytes)
    }

    /// The photo is back at its path, visible, with its id, bytes and modification time.
    func expectRestored(_ fixture: LibraryFixture, _ library: FolderPhotoLibrary, _ asset: PhotoAsset, _ bytes: [UInt8]) throws {
        #expect(try fixture.read(Self.path) == bytes)
        #expect(try library.asset(asset.id) == asset)
        #expect(try library.state(of: asset.id) == .visible)
        #expect(try library.assetCount() == 2)
        #expect(try library.contentsURL(of: asset.id).path == fixture.root.appendingPathComponent(Self.path).path)
        // A later open agrees, reading nothing.
        let reopened = try fixture.open()
        #expect(try reopened.asset(asset.id) == asset)
        #expect(reopened.lastRefresh.read == 0)
    }

    @Test func hideMovesTheFileOutOfSightAndRestoreBringsItBackExactly() throws {
        let (fixture, library, asset, bytes) = try setUp()
        let inode = try fixture.stat(Self.path).inode
        try library.hide(asset.id)
        #expect(!fixture.exists(Self.path))
        #expect(try library.assetCount() == 1)
        #expect(try library.assets(offset: 0, limit: 10).map(\.id) != [asset.id])
        #expect(try library.state(of: asset.id) == .hidden)
        #expect(try library.asset(asset.id) == asset)  // Still known, with its original path.
        let hidden = ".exeraser/hidden/\(asset.id)/IMG_0001.jpg"
        #expect(try library.contentsURL(of: asset.id).path == fixture.root.appendingPathComponent(hidden).path)
        #expect(try fixture.read(hidden) == bytes)
        #expect(try fixture.stat(hidden).modificationNanos == Self.mtimeNanos)
        #expect(try fixture.stat(hidden).inode == inode)
        try library.hide(asset.id)  // Hiding twice changes nothing.

        // Still hidden after a reopen: not found again as a new file.
        let reopened = try fixture.open()
        #expect(try reopened.state(of: asset.id) == .hidden)
        #expect(try reopened.assetCount() == 1)

        let removed = try #require(try reopened.restorable(asset.id))
        #expect(removed.state == .hidden && removed.asset == asset)
        #expect(removed.modificationDate == FileIdentity.date(nanos: Self.mtimeNanos))
        try reopened.restore(removed, from: nil)
        #expect(try fixture.stat(Self.path).modificationNanos == Self.mtimeNanos)
        #expect(!fixture.exists(".exeraser/hidden/\(asset.id)"))
        try expectRestored(fixture, reopened, asset, bytes)
        // Restoring again is a no-op.
        try reopened.restore(removed, from: nil)
    }

    @Test func deleteKeepsTheFileInRecentlyDeletedFor30Days() throws {
        let (fixture, library, asset, bytes) = try setUp()
        let deletedAt = Date(timeIntervalSince1970: 1_700_000_000)
        try library.delete(asset.id, at: deletedAt)
        let stored = ".exeraser/recently-deleted/\(asset.id)/IMG_0001.jpg"
        #expect(try fixture.read(stored) == bytes)
        #expect(try library.state(of: asset.id) == .recentlyDeleted)
        #expect(try library.assetCount() == 1)

        let reopened = try fixture.open()
        #expect(try reopened.purgeExpired(now: deletedAt.addingTimeInterval(30 * 86_400 - 1)).isEmpty)
        #expect(fixture.exists(stored))
        #expect(try reopened.purgeExpired(now: deletedAt.addingTimeInterval(30 * 86_400)) == [asset.id])
        #expect(!fixture.exists(stored) && !fixture.exists(".exeraser/recently-deleted/\(asset.id)"))
        #expect(try reopened.asset(asset.id) == nil)
        #expect(try reopened.restorable(asset.id) == nil)
        #expect(throws: EraserKitError.library(.notFound(asset.id))) {
            try reopened.restore(RemovedAsset(asset: asset, modificationDate: Date(), state: .recentlyDeleted), from: nil)
        }
        #expect(try fixture.open().asset(asset.id) == nil)
    }

    @Test func aDeletedAssetIsRestoredBeforeThePurge() throws {
        let (fixture, library, asset, bytes) = try setUp()
        try library.delete(asset.id)
        let removed = try #require(try library.restorable(asset.id))
        #expect(removed.state == .recentlyDeleted)
        try library.restore(removed, from: nil)
        try expectRestored(fixture, library, asset, bytes)
        #expect(try library.purgeExpired(now: Date().addingTimeInterval(60 * 86_400)).isEmpty)
    }

    @Test func hiddenThenDeletedMovesBetweenTheAreas() throws {
        let (fixture, library, asset, bytes) = try setUp()
        try library.hide(asset.id)
        try library.delete(asset.id)
        #expect(!fixture.exists(".exeraser/hidden/\(asset.id)"))
        #expect(try fixture.read(".exeraser/recently-deleted/\(asset.id)/IMG_0001.jpg") == bytes)
        try library.restore(try #require(try library.restorable(asset.id)), from: nil)
        try expectRestored(fixture, library, asset, bytes)
    }

    @Test func removeForVaultForgetsTheFileAndRestoreWritesItBack() throws {
        let (fixture, library, asset, bytes) = try setUp()
        // The Vault copies the bytes first.
        let vault = try TemporaryDirectory()
        let copy = try vault.write("sealed-copy", Array(try Data(contentsOf: try library.contentsURL(of: asset.id))))
        let removed = try library.removeForVault(asset.id)
        #expect(removed == RemovedAsset(asset: asset, modificationDate: FileIdentity.date(nanos: Self.mtimeNanos), state: .visible))
        #expect(!fixture.exists(Self.path))
        #expect(try library.asset(asset.id) == nil)
        #expect(try library.assetCount() == 1)
        #expect(throws: EraserKitError.library(.notFound(asset.id))) { try library.contentsURL(of: asset.id) }
        #expect(try fixture.open().asset(asset.id) == nil)
        // Its folder is gone too by now (the user tidied up).
        try fixture.remove("2024")

        try library.restore(removed, from: copy)
        #expect(try fixture.stat(Self.path).modificationDate == removed.modificationDate)
        #expect(try library.restorable(asset.id)?.modificationDate == removed.modificationDate)
        try expectRestored(fixture, library, asset, bytes)
        #expect(try fixture.read("2024/summer/IMG_0001.jpg") == bytes)
        // Nothing is left behind in the library's own folder.
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.root.appendingPathComponent(".exeraser/tmp").path).isEmpty)
        // Restoring again is a no-op.
        try library.restore(removed, from: copy)
    }

    @Test func aHiddenAssetCanGoToTheVault() throws {
        let (fixture, library, asset, bytes) = try setUp()
        try library.hide(asset.id)
        let vault = try TemporaryDirectory()
        let copy = try vault.write("copy", Array(try Data(contentsOf: try library.contentsURL(of: asset.id))))
        let removed = try library.removeForVault(asset.id)
        #expect(removed.state == .hidden)
        #expect(!fixture.exists(".exeraser/hidden/\(asset.id)"))
        try library.restore(removed, from: copy)
        try expectRestored(fixture, library, asset, bytes)
    }

    @Test func restoreRefusesWhenAnotherFileIsAtThePath() throws {
        let (fixture, library, asset, bytes) = try setUp()
        let vault = try TemporaryDirectory()
        let copy = try vault.write("copy", bytes)
        let removed = try library.removeForVault(asset.id)
        let squatter = LibraryFixture.photo(tag: "squatter")
        try fixture.write(Self.path, squatter)
        #expect(throws: EraserKitError.library(.pathTaken(Self.path))) { try library.restore(removed, from: copy) }
        #expect(try fixture.read(Self.path) == squatter)
        #expect(try library.asset(asset.id) == nil)

        // The same for a hidden asset.
        let other = try #require(try LibraryFixture.asset(at: "other.png", in: library))
        try library.hide(other.id)
        try fixture.write("other.png", [1, 2, 3])
        let hidden = try #require(try library.restorable(other.id))
        #expect(throws: EraserKitError.library(.pathTaken("other.png"))) { try library.restore(hidden, from: nil) }
        #expect(try library.state(of: other.id) == .hidden)
        #expect(try fixture.read("other.png") == [1, 2, 3])
    }

    @Test func restoreRefusesPathsOutsideTheLibrary() throws {
        let (fixture, library, asset, bytes) = try setUp()
        defer { withExtendedLifetime(fixture) {} }
        let vault = try TemporaryDirectory()
        let copy = try vault.write("copy", bytes)
        var removed = try library.removeForVault(asset.id)
        for path in ["../escape.jpg", ".exeraser/hidden/x.jpg", "a//b.jpg", "notes.txt"] {
            removed.asset.path = path
            #expect(throws: EraserKitError.library(.outsideAccess(path))) { try library.restore(removed, from: copy) }
        }
        // An id already visible elsewhere.
        let other = try #require(try library.assets(offset: 0, limit: 1).first)
        removed.asset = other
        removed.asset.path = "moved.png"
        #expect(throws: EraserKitError.library(.alreadyInLibrary(other.id))) { try library.restore(removed, from: copy) }
        // Nothing to restore from.
        removed.asset = asset
        #expect(throws: EraserKitError.library(.notFound(asset.id))) { try library.restore(removed, from: nil) }
    }

    @Test func anInterruptedHideIsRepairedOnTheNextOpen() throws {
        let (fixture, library, asset, _) = try setUp()
        // The index says hidden, but the move never happened (a crash between the two).
        var record = try #require(library.state.withLock { $0.records[asset.id] })
        record.state = .hidden
        record.storedPath = ".exeraser/hidden/\(asset.id)/IMG_0001.jpg"
        try library.store.apply(upserts: [record], deletions: [])
        let reopened = try fixture.open()
        #expect(try reopened.state(of: asset.id) == .visible)
        #expect(try reopened.asset(asset.id) == asset)
        #expect(reopened.lastRefresh.read == 0)
    }

    @Test func anInterruptedMoveBetweenAreasIsRepairedOnTheNextOpen() throws {
        let (fixture, library, asset, bytes) = try setUp()
        try library.hide(asset.id)
        // The file went to Recently Deleted but the index still says hidden.
        try fixture.move(".exeraser/hidden/\(asset.id)/IMG_0001.jpg", ".exeraser/recently-deleted/\(asset.id)/IMG_0001.jpg")
        let reopened = try fixture.open()
        #expect(try reopened.state(of: asset.id) == .recentlyDeleted)
        #expect(try reopened.purgeExpired(now: Date().addingTimeInterval(29 * 86_400)).isEmpty)
        try reopened.restore(try #require(try reopened.restorable(asset.id)), from: nil)
        try expectRestored(fixture, reopened, asset, bytes)
    }

    @Test func aFileTakenOutOfTheHiddenAreaByHandIsVisibleAgain() throws {
        let (fixture, library, asset, _) = try setUp()
        try library.hide(asset.id)
        try fixture.move(".exeraser/hidden/\(asset.id)/IMG_0001.jpg", "back/IMG_0001.jpg")
        let reopened = try fixture.open()
        #expect(reopened.lastRefresh.moved == 1 && reopened.lastRefresh.read == 0)
        #expect(try reopened.state(of: asset.id) == .visible)
        #expect(try reopened.asset(asset.id)?.path == "back/IMG_0001.jpg")
    }

    @Test func unknownIdsAreNotFound() throws {
        let (fixture, library, _, _) = try setUp()
        defer { withExtendedLifetime(fixture) {} }
        let unknown = AssetID(rawValue: "no-such-id")
        #expect(try library.asset(unknown) == nil)
        #expect(try library.state(of: unknown) == nil)
        let calls: [() throws -> Void] = [
            { try library.hide(unknown) }, { try library.delete(unknown) }, { _ = try library.removeForVault(unknown) },
            { _ = try library.contentsURL(of: unknown) },
        ]
        for call in calls {
            #expect(throws: EraserKitError.library(.notFound(unknown))) { try call() }
        }
    }
}
