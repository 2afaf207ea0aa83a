import Foundation
import KindredTestSupport
import Testing

@testable import EraserKit

/// Photos written by Pillow, read by `MediaMetadataReader` and listed by `FolderPhotoLibrary`.
@Suite(.enabled(if: PillowFixtures.shouldRun, "python3 with Pillow not found (set CI=true to make this a failure)"))
struct PillowLibraryTests {
    static var sydney: [String: Any] {
        ["lat_ref": "S", "lat": [[33, 1], [51, 1], [3590, 100]], "lon_ref": "E", "lon": [[151, 1], [12, 1], [4000, 100]],
         "alt_ref": 1, "alt": [125, 10]]
    }
    static var newYork: [String: Any] {
        ["lat_ref": "N", "lat": [[40, 1], [42, 1], [4600, 100]], "lon_ref": "W", "lon": [[74, 1], [0, 1], [2150, 100]],
         "alt": [10, 1]]
    }
    static let mtime = 1_600_000_000.25

    static var files: [[String: Any]] { [
        ["path": "trip/sydney.jpg", "format": "JPEG", "size": [64, 48], "datetime_original": "2024:07:14 18:30:05",
         "offset_time_original": "+10:00", "gps": sydney],
        ["path": "trip/nyc.jpg", "format": "JPEG", "size": [40, 30], "datetime_original": "2024:01:10 12:00:00",
         "pixel_dimensions": [4000, 3000], "gps": newYork],
        ["path": "trip/sydney.png", "format": "PNG", "size": [32, 24], "datetime_original": "2024:07:14 18:30:05",
         "offset_time_original": "+10:00", "gps": sydney],
        ["path": "plain/no-exif-date.png", "format": "PNG", "size": [16, 16], "mtime": mtime],
        ["path": "plain/no-exif-date.jpg", "format": "JPEG", "size": [20, 10], "mtime": mtime],
    ] }

    @Test func pillowFilesReadAsWritten() throws {
        let fixture = try LibraryFixture()
        try PillowFixtures.write(root: fixture.root, files: Self.files)
        let library = try FolderPhotoLibrary(root: fixture.root, timeZone: TimeZone(identifier: "America/New_York")!)
        #expect(library.metadataProblems().isEmpty)
        let assets = try LibraryFixture.all(library)
        func asset(_ path: String) throws -> PhotoAsset { try #require(assets.first { $0.path == path }) }

        let sydneyLatitude = -(33 + 51.0 / 60 + 35.9 / 3600), sydneyLongitude = 151 + 12.0 / 60 + 40.0 / 3600
        // 18:30:05 at UTC+10 is 08:30:05Z.
        let sydneyInstant = Date(timeIntervalSince1970: 1_720_945_805)
        for path in ["trip/sydney.jpg", "trip/sydney.png"] {
            let photo = try asset(path)
            #expect(photo.captureDate == CaptureDate(date: sydneyInstant, source: .exifWithOffset, utcOffsetSeconds: 36_000), "\(path)")
            let location = try #require(photo.location)
            #expect(abs(location.latitude - sydneyLatitude) < 1e-9 && abs(location.longitude - sydneyLongitude) < 1e-9)
            #expect(location.altitude == -12.5)
        }
        #expect(try asset("trip/sydney.jpg").pixelWidth == 64 && (try asset("trip/sydney.jpg").pixelHeight) == 48)
        #expect(try asset("trip/sydney.png").pixelWidth == 32 && (try asset("trip/sydney.png").pixelHeight) == 24)

        let nyc = try asset("trip/nyc.jpg")
        // No offset: 12:00 read in New York (EST in January, UTC-5) is 17:00Z.
        #expect(nyc.captureDate == CaptureDate(date: Date(timeIntervalSince1970: 1_704_906_000), source: .exifLocal))
        #expect(nyc.pixelWidth == 4000 && nyc.pixelHeight == 3000)  // EXIF's, over the frame's 40×30.
        let nycLocation = try #require(nyc.location)
        #expect(abs(nycLocation.latitude - (40 + 42.0 / 60 + 46.0 / 3600)) < 1e-9)
        #expect(abs(nycLocation.longitude + (74 + 21.5 / 3600)) < 1e-9)
        #expect(nycLocation.altitude == 10)

        for path in ["plain/no-exif-date.png", "plain/no-exif-date.jpg"] {
            #expect(try asset(path).captureDate == CaptureDate(date: Date(timeIntervalSince1970: Self.mtime), source: .fileTime))
            #expect(try asset(path).location == nil)
        }
    }

    @Test func pillowFilesSurviveHideAndVaultRoundTrips() throws {
        let fixture = try LibraryFixture()
        try PillowFixtures.write(root: fixture.root, files: Self.files)
        let library = try fixture.open()
        let photo = try #require(try LibraryFixture.asset(at: "trip/sydney.jpg", in: library))
        let bytes = try fixture.read(photo.path)
        let mtime = try fixture.stat(photo.path).modificationNanos
        let vault = try TemporaryDirectory()
        let copy = try vault.write("copy", bytes)
        let removed = try library.removeForVault(photo.id)
        try fixture.move("trip/nyc.jpg", "trip/renamed/nyc.jpg")
        let reopened = try fixture.open()
        try reopened.restore(removed, from: copy)
        #expect(try fixture.read(photo.path) == bytes)
        #expect(try fixture.stat(photo.path).modificationDate == FileIdentity.date(nanos: mtime))
        #expect(try reopened.asset(photo.id) == photo)
        #expect(try reopened.assetCount() == 5)
    }
}
