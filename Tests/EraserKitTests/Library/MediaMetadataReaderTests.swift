import Foundation
import KindredTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@testable import EraserKit

@Suite struct MediaMetadataReaderTests {
    let utc = TimeZone(identifier: "UTC")!
    let newYork = TimeZone(identifier: "America/New_York")!
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    /// 2024-07-14T09:30:05Z.
    let instant = Date(timeIntervalSince1970: 1_720_949_405)

    // MARK: - Dates

    @Test(arguments: [true, false])
    func exifDateWithOffsetIsAnExactInstant(bigEndian: Bool) throws {
        let file = MediaFixtures.jpeg(tiff: TIFFBuilder.photo(bigEndian: bigEndian, offset: "+09:00").bytes())
        for zone in [utc, newYork] {
            let metadata = try MediaMetadataReader(timeZone: zone).read(file)
            #expect(metadata.embeddedCaptureDate == CaptureDate(date: instant, source: .exifWithOffset, utcOffsetSeconds: 32_400))
        }
    }

    @Test func exifDateWithANegativeHalfHourOffset() throws {
        let file = MediaFixtures.jpeg(tiff: TIFFBuilder.photo(date: "2024:07:14 05:00:05", offset: "-04:30").bytes())
        let date = try #require(try MediaMetadataReader(timeZone: utc).read(file).embeddedCaptureDate)
        #expect(date.date == instant)
        #expect(date.utcOffsetSeconds == -16_200)
    }

    @Test func exifDateWithoutOffsetIsReadInTheGivenZone() throws {
        let file = MediaFixtures.jpeg(tiff: TIFFBuilder.photo().bytes())
        // 18:30:05 in New York (EDT, UTC-4) is 22:30:05Z; in Tokyo (UTC+9) it is 09:30:05Z.
        let inNewYork = try MediaMetadataReader(timeZone: newYork).read(file).embeddedCaptureDate
        #expect(inNewYork == CaptureDate(date: instant.addingTimeInterval(13 * 3600), source: .exifLocal))
        let inTokyo = try MediaMetadataReader(timeZone: tokyo).read(file).embeddedCaptureDate
        #expect(inTokyo == CaptureDate(date: instant, source: .exifLocal))
    }

    @Test func aWinterDateUsesTheZonesWinterOffset() throws {
        let file = MediaFixtures.jpeg(tiff: TIFFBuilder.photo(date: "2024:01:10 12:00:00").bytes())
        let date = try MediaMetadataReader(timeZone: newYork).read(file).embeddedCaptureDate
        #expect(date?.date == Date(timeIntervalSince1970: 1_704_906_000))  // 17:00Z (EST, UTC-5)
    }

    @Test func subSecondsAreKept() throws {
        let file = MediaFixtures.jpeg(tiff: TIFFBuilder.photo(offset: "+09:00", subsec: "25").bytes())
        let date = try #require(try MediaMetadataReader(timeZone: utc).read(file).embeddedCaptureDate)
        #expect(date.date == instant.addingTimeInterval(0.25))
    }

    @Test func unknownDateFormsCountAsNoDate() throws {
        for text in ["0000:00:00 00:00:00", "    :  :     :  :  "] {
            let file = MediaFixtures.jpeg(tiff: TIFFBuilder.photo(date: text).bytes())
            let metadata = try MediaMetadataReader(timeZone: utc).read(file)
            #expect(metadata.embeddedCaptureDate == nil)
            let mtime = Date(timeIntervalSince1970: 1_600_000_000)
            #expect(metadata.captureDate(fileModificationDate: mtime) == CaptureDate(date: mtime, source: .fileTime))
        }
        // A blank offset is no offset: the local reading.
        let blankOffset = MediaFixtures.jpeg(tiff: TIFFBuilder.photo(offset: "      ").bytes())
        #expect(try MediaMetadataReader(timeZone: tokyo).read(blankOffset).embeddedCaptureDate?.source == .exifLocal)
    }

    @Test func movieCreationTimeIsTheContainerDate() throws {
        for (mvhd, tkhd, large) in [(UInt8(0), UInt8(0), false), (1, 1, true), (0, 1, false)] {
            let file = MediaFixtures.movie(mvhdVersion: mvhd, creation: MediaFixtures.seconds1904(instant), tkhdVersion: tkhd, largeMdat: large)
            let metadata = try MediaMetadataReader(timeZone: tokyo).read(file)
            #expect(metadata.format == .isoMovie)
            #expect(metadata.mediaType == .video)
            #expect(metadata.embeddedCaptureDate == CaptureDate(date: instant, source: .container))
            #expect(metadata.pixelWidth == 1920 && metadata.pixelHeight == 1080)
        }
    }

    @Test func aVersion1CreationTimeBeyond2040Works() throws {
        let later = Date(timeIntervalSince1970: 4_102_444_800)  // 2100-01-01, past UInt32 seconds from 1904.
        let file = MediaFixtures.movie(mvhdVersion: 1, creation: MediaFixtures.seconds1904(later))
        #expect(try MediaMetadataReader(timeZone: utc).read(file).embeddedCaptureDate?.date == later)
    }

    @Test func aMovieWithoutCreationTimeFallsBackToTheFileTime() throws {
        let metadata = try MediaMetadataReader(timeZone: utc).read(MediaFixtures.movie(creation: 0, moovLast: false))
        #expect(metadata.embeddedCaptureDate == nil)
        let mtime = Date(timeIntervalSince1970: 1_500_000_000)
        #expect(metadata.captureDate(fileModificationDate: mtime) == CaptureDate(date: mtime, source: .fileTime))
    }

    @Test func quickTimeBrandIsAVideo() throws {
        let file = MediaFixtures.movie(brand: "qt  ", creation: MediaFixtures.seconds1904(instant), width: 720, height: 1280)
        let metadata = try MediaMetadataReader(timeZone: utc).read(file)
        #expect(metadata.mediaType == .video)
        #expect(metadata.pixelWidth == 720 && metadata.pixelHeight == 1280)
    }

    @Test func heicIsAPhotoAndNothingMore() throws {
        let metadata = try MediaMetadataReader(timeZone: utc).read(MediaFixtures.heic())
        #expect(metadata == MediaMetadata(format: .heic))
        #expect(metadata.mediaType == .photo)
    }

    // MARK: - Sizes

    @Test func sizeComesFromExifWhenItHasBothDimensions() throws {
        let file = MediaFixtures.jpeg(tiff: TIFFBuilder.photo(size: (4032, 3024)).bytes(), width: 640, height: 480)
        let metadata = try MediaMetadataReader(timeZone: utc).read(file)
        #expect(metadata.format == .jpeg)
        #expect(metadata.pixelWidth == 4032 && metadata.pixelHeight == 3024)
    }

    @Test func sizeComesFromTheFrameHeaderOtherwise() throws {
        let withoutSize = MediaFixtures.jpeg(tiff: TIFFBuilder.photo(size: nil).bytes(), width: 641, height: 479, exifFirst: false)
        let metadata = try MediaMetadataReader(timeZone: utc).read(withoutSize)
        #expect(metadata.pixelWidth == 641 && metadata.pixelHeight == 479)
        #expect(metadata.embeddedCaptureDate?.source == .exifLocal)
        let noExif = try MediaMetadataReader(timeZone: utc).read(MediaFixtures.jpeg(tiff: nil, width: 10, height: 20))
        #expect(noExif == MediaMetadata(format: .jpeg, pixelWidth: 10, pixelHeight: 20))
    }

    @Test func pngSizeFromIHDRAndDateFromEXIf() throws {
        let tiff = TIFFBuilder.photo(bigEndian: false, offset: "+09:00", size: (9999, 9999)).bytes()
        let metadata = try MediaMetadataReader(timeZone: utc).read(MediaFixtures.png(width: 320, height: 200, exif: tiff))
        #expect(metadata.format == .png)
        #expect(metadata.pixelWidth == 320 && metadata.pixelHeight == 200)
        #expect(metadata.embeddedCaptureDate?.date == instant)
        // With JPEG's "Exif\0\0" prefix, as some writers do.
        let prefixed = MediaFixtures.png(exif: Array("Exif".utf8) + [0, 0] + tiff)
        #expect(try MediaMetadataReader(timeZone: utc).read(prefixed).embeddedCaptureDate?.date == instant)
        let plain = try MediaMetadataReader(timeZone: utc).read(MediaFixtures.png(width: 1, height: 2))
        #expect(plain == MediaMetadata(format: .png, pixelWidth: 1, pixelHeight: 2))
    }

    // MARK: - GPS

    @Test(arguments: [("N", "E", false), ("S", "W", true), ("S", "E", false), ("N", "W", true)])
    func gpsSignsFollowTheReferences(latitudeRef: String, longitudeRef: String, below: Bool) throws {
        let gps = TIFFBuilder.gps(
            latitudeRef: latitudeRef, latitude: (33, 51, 3590), longitudeRef: longitudeRef, longitude: (151, 12, 4000),
            altitude: (125, 10), belowSeaLevel: below)
        let file = MediaFixtures.jpeg(tiff: TIFFBuilder.photo(gps: gps).bytes())
        let location = try #require(try MediaMetadataReader(timeZone: utc).read(file).location)
        let latitude = 33 + 51.0 / 60 + 35.9 / 3600, longitude = 151 + 12.0 / 60 + 40.0 / 3600
        #expect(abs(location.latitude - (latitudeRef == "S" ? -latitude : latitude)) < 1e-12)
        #expect(abs(location.longitude - (longitudeRef == "W" ? -longitude : longitude)) < 1e-12)
        #expect(location.altitude == (below ? -12.5 : 12.5))
    }

    @Test func gpsWithoutAltitudeOrWithoutPosition() throws {
        let noAltitude = TIFFBuilder.gps(latitudeRef: "N", latitude: (48, 51, 0), longitudeRef: "E", longitude: (2, 21, 0))
        let paris = try MediaMetadataReader(timeZone: utc).read(MediaFixtures.jpeg(tiff: TIFFBuilder.photo(gps: noAltitude).bytes()))
        #expect(paris.location == GeoLocation(latitude: 48 + 51.0 / 60, longitude: 2 + 21.0 / 60))
        let versionOnly = TIFFBuilder.photo(gps: [(0x0000, .raw(type: 1, count: 4, bytes: [2, 3, 0, 0]))])
        #expect(try MediaMetadataReader(timeZone: utc).read(MediaFixtures.jpeg(tiff: versionOnly.bytes())).location == nil)
    }

    // MARK: - Files

    @Test func aFileIsReadWithoutLoadingItWhole() throws {
        let directory = try TemporaryDirectory()
        let url = try directory.write("clip.mov", MediaFixtures.movie(brand: "qt  ", creation: MediaFixtures.seconds1904(instant)))
        let metadata = try MediaMetadataReader(timeZone: utc).read(contentsOf: url)
        #expect(metadata.embeddedCaptureDate?.date == instant)
        #expect(throws: EraserKitError.library(.fileSystem(path: directory.url.path + "/missing.jpg", reason: "No such file or directory"))) {
            try MediaMetadataReader(timeZone: utc).read(contentsOf: directory.url.appendingPathComponent("missing.jpg"))
        }
    }

    @Test func aFolderOrAFIFOIsNotReadAsAFile() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.url.appendingPathComponent("pipe.jpg")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        for url in [directory.url, fifo] {
            #expect(throws: EraserKitError.library(.fileSystem(path: url.path, reason: "not a regular file"))) {
                try MediaMetadataReader(timeZone: utc).read(contentsOf: url)
            }
        }
    }

    @Test func crc32KnownAnswer() {
        #expect(PNGCRC32.checksum(Array("IEND".utf8)) == 0xAE42_6082)
        #expect(PNGCRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }
}
