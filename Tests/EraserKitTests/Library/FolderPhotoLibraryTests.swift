import Foundation
import KindredTestSupport
import Testing

@testable import EraserKit

@Suite struct FolderPhotoLibraryTests {
    let mtime = Date(timeIntervalSince1970: 1_650_000_000.5)

    /// A tree with one file per date source, files the library ignores, and a hidden folder.
    func sampleTree() throws -> LibraryFixture {
        let fixture = try LibraryFixture()
        try fixture.write("2024/summer/IMG_0001.JPG", LibraryFixture.photo(tag: "1"), mtime: mtime)
        try fixture.write("2024/summer/IMG_0002.jpeg", LibraryFixture.photo(offset: nil, tag: "2"), mtime: mtime)
        try fixture.write("2024/clip.mp4", MediaFixtures.movie(creation: MediaFixtures.seconds1904(LibraryFixture.exifInstant)), mtime: mtime)
        try fixture.write("screenshots/shot.png", MediaFixtures.png(width: 1170, height: 2532), mtime: mtime)
        try fixture.write("phone/IMG_5000.HEIC", MediaFixtures.heic(), mtime: mtime)
        try fixture.write("phone/old.mov", MediaFixtures.movie(brand: "qt  ", creation: 0), mtime: mtime)
        try fixture.write("notes.txt", Array("not a photo".utf8))
        try fixture.write(".thumbnails/IMG_0001.jpg", LibraryFixture.photo(tag: "thumb"))
        try fixture.write("2024/.DS_Store", [0, 1, 2])
        try FileManager.default.createSymbolicLink(
            at: fixture.root.appendingPathComponent("link.jpg"), withDestinationURL: fixture.root.appendingPathComponent("2024/summer/IMG_0001.JPG"))
        return fixture
    }

    @Test func listsPhotosAndVideosInIdOrderWithTheirMetadata() throws {
        let fixture = try sampleTree()
        let library = try fixture.open()
        #expect(try library.assetCount() == 6)
        let assets = try LibraryFixture.all(library, page: 4)
        #expect(assets.map(\.id) == assets.map(\.id).sorted())
        #expect(Set(assets.map(\.path)) == [
            "2024/summer/IMG_0001.JPG", "2024/summer/IMG_0002.jpeg", "2024/clip.mp4", "screenshots/shot.png",
            "phone/IMG_5000.HEIC", "phone/old.mov",
        ])
        func asset(_ path: String) throws -> PhotoAsset { try #require(assets.first { $0.path == path }) }

        let exact = try asset("2024/summer/IMG_0001.JPG")
        #expect(exact.captureDate == CaptureDate(date: LibraryFixture.exifInstant, source: .exifWithOffset, utcOffsetSeconds: 7200))
        #expect(exact.mediaType == .photo && exact.pixelWidth == 4000 && exact.pixelHeight == 3000)
        #expect(exact.location == GeoLocation(latitude: 52 + 31.0 / 60, longitude: 13 + 24.0 / 60))
        #expect(exact.byteCount == Int64(LibraryFixture.photo(tag: "1").count))
        // No offset: read in the library's zone (Berlin, UTC+2 in July): the same instant.
        #expect(try asset("2024/summer/IMG_0002.jpeg").captureDate == CaptureDate(date: LibraryFixture.exifInstant, source: .exifLocal))
        let clip = try asset("2024/clip.mp4")
        #expect(clip.mediaType == .video && clip.pixelWidth == 1920)
        #expect(clip.captureDate == CaptureDate(date: LibraryFixture.exifInstant, source: .container))
        #expect(try asset("screenshots/shot.png").captureDate == CaptureDate(date: mtime, source: .fileTime))
        #expect(try asset("phone/old.mov").captureDate == CaptureDate(date: mtime, source: .fileTime))
        let heic = try asset("phone/IMG_5000.HEIC")
        #expect(heic.mediaType == .photo && heic.pixelWidth == nil && heic.captureDate.source == .fileTime)
        #expect(library.metadataProblems().isEmpty)
    }

    @Test func pagesAreSlicesOfTheStableOrder() throws {
        let fixture = try sampleTree()
        let library = try fixture.open()
        let all = try library.assets(offset: 0, limit: 100)
        #expect(try library.assets(offset: 2, limit: 3) == Array(all[2..<5]))
        #expect(try library.assets(offset: 5, limit: 10) == [all[5]])
        #expect(try library.assets(offset: 6, limit: 10).isEmpty)
        #expect(try library.assets(offset: 0, limit: 0).isEmpty)
        #expect(throws: EraserKitError.library(.invalidPage(offset: -1, limit: 5))) { try library.assets(offset: -1, limit: 5) }
        #expect(throws: EraserKitError.library(.invalidPage(offset: 0, limit: -5))) { try library.assets(offset: 0, limit: -5) }
    }

    @Test func anUnreadableFileIsListedWithItsFileTime() throws {
        let fixture = try LibraryFixture()
        try fixture.write("broken.jpg", [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x01], mtime: mtime)
        try fixture.write("fake.mp4", Array("hello".utf8), mtime: mtime)
        let library = try fixture.open()
        let assets = try LibraryFixture.all(library)
        #expect(assets.count == 2)
        let broken = try #require(assets.first { $0.path == "broken.jpg" })
        #expect(broken.captureDate == CaptureDate(date: mtime, source: .fileTime) && broken.mediaType == .photo)
        let fake = try #require(assets.first { $0.path == "fake.mp4" })
        #expect(fake.mediaType == .video)
        let problems = library.metadataProblems()
        #expect(problems[fake.id] == .unsupportedFormat("fake.mp4"))
        guard case .unreadableMetadata("broken.jpg", let reason) = problems[broken.id] else {
            Issue.record("no problem recorded for broken.jpg: \(problems)")
            return
        }
        #expect(reason.contains("has length 1"))
        // Kept in the index: the next open knows the problem without reading the file again.
        let again = try fixture.open()
        #expect(again.metadataProblems() == problems)
        #expect(again.lastRefresh.read == 0)
    }

    @Test func aMissingRootIsRefused() {
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)")
        #expect(throws: EraserKitError.library(.missingRoot(url.path))) { try FolderPhotoLibrary(root: url) }
    }

    // MARK: - Ids

    @Test func aRenamedOrMovedFileKeepsItsIdWithoutBeingRead() throws {
        let fixture = try sampleTree()
        let before = try LibraryFixture.all(try fixture.open())
        let photo = try #require(before.first { $0.path == "2024/summer/IMG_0001.JPG" })
        let clip = try #require(before.first { $0.path == "2024/clip.mp4" })
        try fixture.move("2024/summer/IMG_0001.JPG", "2024/summer/Beach.JPG")
        try fixture.move("2024/clip.mp4", "archive/2023/clip.mp4")

        let library = try fixture.open()
        #expect(library.lastRefresh.moved == 2)
        #expect(library.lastRefresh.read == 0)
        #expect(library.lastRefresh.unchanged == 4)
        let after = try LibraryFixture.all(library)
        #expect(after.map(\.id) == before.map(\.id))
        var renamed = photo
        renamed.path = "2024/summer/Beach.JPG"
        #expect(try library.asset(photo.id) == renamed)
        #expect(try library.asset(clip.id)?.path == "archive/2023/clip.mp4")
    }

    @Test func aCopiedThenDeletedFileKeepsItsIdByFingerprint() throws {
        let fixture = try sampleTree()
        let photo = try #require(try LibraryFixture.asset(at: "2024/summer/IMG_0002.jpeg", in: try fixture.open()))
        // A copy (a new inode) under another name, and the original deleted.
        try fixture.write("elsewhere/copy.jpeg", try fixture.read("2024/summer/IMG_0002.jpeg"))
        try fixture.remove("2024/summer/IMG_0002.jpeg")
        let library = try fixture.open()
        #expect(library.lastRefresh.moved == 1)
        #expect(library.lastRefresh.read == 1)
        #expect(library.lastRefresh.added == 0 && library.lastRefresh.gone == 0)
        #expect(try library.asset(photo.id)?.path == "elsewhere/copy.jpeg")
    }

    @Test func anEditedFileKeepsItsIdAndIsReadAgain() throws {
        let fixture = try sampleTree()
        let photo = try #require(try LibraryFixture.asset(at: "2024/summer/IMG_0001.JPG", in: try fixture.open()))
        // Saved by an editor as a new file over the old one: another inode, other bytes.
        let edited = LibraryFixture.photo(date: "2020:01:01 00:00:00", offset: "+00:00", tag: "edited")
        try fixture.write("2024/summer/IMG_0001.JPG.tmp", edited)
        try fixture.remove("2024/summer/IMG_0001.JPG")
        try fixture.move("2024/summer/IMG_0001.JPG.tmp", "2024/summer/IMG_0001.JPG")
        let library = try fixture.open()
        #expect(library.lastRefresh.changed == 1 && library.lastRefresh.read == 1)
        let asset = try #require(try library.asset(photo.id))
        #expect(asset.captureDate.date == Date(timeIntervalSince1970: 1_577_836_800))
        #expect(asset.byteCount == Int64(edited.count))
    }

    @Test func newFilesGetNewIdsAndGoneOnesAreForgotten() throws {
        let fixture = try sampleTree()
        let first = try fixture.open()
        let before = try LibraryFixture.all(first)
        let gone = try #require(before.first { $0.path == "phone/old.mov" })
        try fixture.remove("phone/old.mov")
        try fixture.write("phone/new.m4v", MediaFixtures.movie(creation: 5))
        let refreshed = try first.refresh()
        #expect(refreshed.added == 1 && refreshed.gone == 1 && refreshed.unchanged == 5 && refreshed.read == 1)
        #expect(try first.asset(gone.id) == nil)
        let new = try #require(try LibraryFixture.asset(at: "phone/new.m4v", in: first))
        #expect(!before.map(\.id).contains(new.id))
        #expect(UUID(uuidString: new.id.rawValue) != nil)
        // And a later open agrees.
        #expect(try LibraryFixture.all(try fixture.open()) == (try LibraryFixture.all(first)))
    }

    @Test func aReusedInodeDoesNotPassOnAnId() throws {
        let fixture = try LibraryFixture()
        try fixture.write("a/old.jpg", LibraryFixture.photo(tag: "old"))
        let library = try fixture.open()
        let old = try #require(try library.assets(offset: 0, limit: 1).first)
        // The file is deleted and a new one of the same size gets its inode (as ext4 may do at
        // once): the index's row is rewritten to say so.
        try fixture.remove("a/old.jpg")
        try fixture.write("b/new.jpg", LibraryFixture.photo(tag: "new"), mtime: Date(timeIntervalSince1970: 1_700_000_000))
        var row = try #require(library.state.withLock { $0.records[old.id] })
        row.identity = try fixture.stat("b/new.jpg")
        row.modificationNanos -= 1_000_000_000
        try library.store.apply(upserts: [row], deletions: [])

        let reopened = try fixture.open()
        #expect(reopened.lastRefresh.added == 1 && reopened.lastRefresh.gone == 1 && reopened.lastRefresh.moved == 0)
        #expect(try reopened.asset(old.id) == nil)
        #expect(try LibraryFixture.asset(at: "b/new.jpg", in: reopened)?.id != old.id)
    }

    @Test func aTouchedAndMovedFileKeepsItsId() throws {
        let fixture = try LibraryFixture()
        try fixture.write("a/photo.jpg", LibraryFixture.photo(tag: "touched"))
        let photo = try #require(try fixture.open().assets(offset: 0, limit: 1).first)
        try fixture.move("a/photo.jpg", "b/photo.jpg")
        try fixture.setModificationNanos("b/photo.jpg", 1_500_000_000_000_000_000)
        let reopened = try fixture.open()
        #expect(reopened.lastRefresh.moved == 1 && reopened.lastRefresh.read == 1)
        #expect(try reopened.asset(photo.id)?.path == "b/photo.jpg")
    }

    @Test func reopeningReadsNothingAndDatesFollowTheZone() throws {
        let fixture = try sampleTree()
        let first = try fixture.open()
        #expect(first.lastRefresh.read == 6 && first.lastRefresh.added == 6)
        let second = try fixture.open()
        #expect(second.lastRefresh == { var r = LibraryRefresh(); r.scanned = 6; r.unchanged = 6; return r }())
        #expect(try LibraryFixture.all(second) == (try LibraryFixture.all(first)))
        // The same index read in another zone re-reads its local EXIF dates there, without the files.
        let tokyo = try FolderPhotoLibrary(root: fixture.root, timeZone: TimeZone(identifier: "Asia/Tokyo")!)
        #expect(tokyo.lastRefresh.read == 0)
        let local = try #require(try LibraryFixture.asset(at: "2024/summer/IMG_0002.jpeg", in: tokyo))
        #expect(local.captureDate == CaptureDate(date: LibraryFixture.exifInstant.addingTimeInterval(-7 * 3600), source: .exifLocal))
    }

    // MARK: - Limited access

    @Test func aLimitedLibrarySeesOnlyItsFolders() throws {
        let fixture = try sampleTree()
        let full = try LibraryFixture.all(try fixture.open())
        let outside = try #require(full.first { $0.path == "screenshots/shot.png" })
        let inside = try #require(full.first { $0.path == "2024/summer/IMG_0001.JPG" })

        let limited = try fixture.open(.limited(folders: ["2024/summer/", "./phone", "2024/summer/deeper"]))
        #expect(limited.access == .limited(folders: ["2024/summer/", "./phone", "2024/summer/deeper"]))
        #expect(Set(try LibraryFixture.all(limited).map(\.path)) == [
            "2024/summer/IMG_0001.JPG", "2024/summer/IMG_0002.jpeg", "phone/IMG_5000.HEIC", "phone/old.mov",
        ])
        #expect(try limited.asset(inside.id) == inside)
        let refused = EraserKitError.library(.outsideAccess("screenshots/shot.png"))
        #expect(throws: refused) { try limited.asset(outside.id) }
        #expect(throws: refused) { try limited.contentsURL(of: outside.id) }
        #expect(throws: refused) { try limited.hide(outside.id) }
        #expect(throws: refused) { try limited.delete(outside.id) }
        #expect(throws: refused) { _ = try limited.removeForVault(outside.id) }
        #expect(fixture.exists("screenshots/shot.png"))

        // Restoring into a folder out of sight is refused too.
        let removed = try fixture.open().removeForVault(outside.id)
        let vault = try TemporaryDirectory()
        let copy = try vault.write("bytes", MediaFixtures.png(width: 1170, height: 2532))
        #expect(throws: refused) { try limited.restore(removed, from: copy) }

        // A prefix of a folder's name is not inside it.
        try fixture.write("2024/summertime/x.jpg", LibraryFixture.photo(tag: "x"))
        #expect(try limited.refresh().added == 0)
    }

    @Test func aLimitedOpenLeavesTheRestOfTheIndexAlone() throws {
        let fixture = try sampleTree()
        let full = try LibraryFixture.all(try fixture.open())
        try fixture.move("screenshots/shot.png", "screenshots/renamed.png")
        let limited = try fixture.open(.limited(folders: ["phone"]))
        #expect(limited.lastRefresh.scanned == 2 && limited.lastRefresh.gone == 0)
        // The full library still matches the renamed file with its id.
        let again = try fixture.open()
        #expect(again.lastRefresh.moved == 1)
        #expect(Set(try LibraryFixture.all(again).map(\.id)) == Set(full.map(\.id)))
    }

    @Test func limitedFoldersMayNotLeaveTheRoot() throws {
        let fixture = try LibraryFixture()
        for folder in ["../elsewhere", "/etc", "a/../../b"] {
            #expect(throws: EraserKitError.library(.outsideAccess(folder))) { try fixture.open(.limited(folders: [folder])) }
        }
        // A limited folder that does not exist yet holds nothing.
        #expect(try fixture.open(.limited(folders: ["not-yet"])).assetCount() == 0)
    }

    // MARK: - Scale and concurrency

    @Test(.timeLimit(.minutes(2)))
    func tenThousandFilesListInPagesAndReopenWithoutReading() throws {
        let fixture = try LibraryFixture()
        let png = MediaFixtures.png(width: 8, height: 8)
        for folder in 0..<100 {
            try FileManager.default.createDirectory(at: fixture.root.appendingPathComponent("f\(folder)"), withIntermediateDirectories: true)
            for file in 0..<100 {
                try fixture.writeQuickly("f\(folder)/\(file).png", png + MediaFixtures.be32(UInt32(folder * 100 + file)))
            }
        }
        let first = try fixture.open()
        #expect(try first.assetCount() == 10_000)
        let second = try fixture.open()
        #expect(second.lastRefresh.unchanged == 10_000 && second.lastRefresh.read == 0)
        let listed = try LibraryFixture.all(second, page: 500)
        #expect(listed.count == 10_000)
        #expect(listed.map(\.id) == listed.map(\.id).sorted())
        #expect(Set(listed.map(\.path)).count == 10_000)
    }

    @Test func concurrentChangesAreSerialised() async throws {
        let fixture = try LibraryFixture()
        for index in 0..<40 { try fixture.write("p/\(index).jpg", LibraryFixture.photo(tag: "\(index)")) }
        let library = try fixture.open()
        let ids = try library.assets(offset: 0, limit: 100).map(\.id)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, id) in ids.enumerated() {
                group.addTask {
                    if index % 2 == 0 { try library.hide(id) } else { try library.delete(id) }
                    _ = try library.assets(offset: 0, limit: 10)
                }
            }
            try await group.waitForAll()
        }
        #expect(try library.assetCount() == 0)
        #expect(try ids.allSatisfy { try library.state(of: $0) != .visible })
        let reopened = try fixture.open()
        #expect(try reopened.assetCount() == 0)
        #expect(reopened.lastRefresh.gone == 0)
    }
}
