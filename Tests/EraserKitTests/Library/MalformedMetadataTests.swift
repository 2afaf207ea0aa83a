import Foundation
import Testing

@testable import EraserKit

/// Each malformed structure gives `unreadableMetadata` with a reason naming it.
@Suite struct MalformedMetadataTests {
    let reader = MediaMetadataReader(timeZone: TimeZone(identifier: "UTC")!)

    /// The reason of the `unreadableMetadata` error `bytes` give.
    func reason(_ bytes: [UInt8]) -> String? {
        do {
            _ = try reader.read(bytes, path: "x")
            return nil
        } catch {
            guard case .library(.unreadableMetadata(let path, let reason)) = error, path == "x" else { return "other: \(error)" }
            return reason
        }
    }

    static let jpeg = MediaFixtures.jpeg(tiff: TIFFBuilder.photo().bytes())

    /// `tiff` wrapped in a JPEG.
    func jpegReason(_ tiff: TIFFBuilder) -> String? { reason(MediaFixtures.jpeg(tiff: tiff.bytes())) }

    @Test func unknownBytesAreAnUnsupportedFormat() {
        for bytes: [UInt8] in [[], Array("GIF89a...".utf8), [0xFF, 0xD8], [0x89, 0x50]] {
            #expect(throws: EraserKitError.library(.unsupportedFormat("x"))) { try reader.read(bytes, path: "x") }
        }
    }

    @Test func jpegStructure() {
        #expect(reason(Array(Self.jpeg.prefix(3)))?.contains("a marker code at offset 3") == true)
        #expect(reason(Array(Self.jpeg.prefix(40)))?.contains("runs past the end") == true)
        // A segment length of 1 (it counts its own two bytes).
        #expect(reason([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01])?.contains("has length 1") == true)
        // Garbage where a marker should be.
        #expect(reason([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x02, 0x41])?.contains("expected a marker") == true)
        // Scan data before any frame header.
        #expect(reason([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02])?.contains("before any frame header") == true)
        // No SOS or EOI at all.
        #expect(reason([0xFF, 0xD8, 0xFF, 0xFE, 0x00, 0x03, 0x41])?.contains("no SOS") == true)
        // An endless run of fill bytes.
        #expect(reason([0xFF, 0xD8] + [UInt8](repeating: 0xFF, count: 5000))?.contains("fill bytes") == true)
    }

    @Test func tiffHeader() {
        var wrongOrder = TIFFBuilder.photo().bytes()
        wrongOrder[0] = 0x58
        #expect(reason(MediaFixtures.jpeg(tiff: wrongOrder))?.contains("not II or MM") == true)
        var wrongMagic = TIFFBuilder.photo().bytes()
        wrongMagic[3] = 43
        #expect(reason(MediaFixtures.jpeg(tiff: wrongMagic))?.contains("magic number") == true)
        var wildIFD0 = TIFFBuilder.photo().bytes()
        wildIFD0[4...7] = [0x7F, 0xFF, 0xFF, 0xFF]
        #expect(reason(MediaFixtures.jpeg(tiff: wildIFD0))?.contains("IFD0") == true)
        var inHeader = TIFFBuilder.photo().bytes()
        inHeader[4...7] = [0, 0, 0, 2]
        #expect(reason(MediaFixtures.jpeg(tiff: inHeader))?.contains("inside the TIFF header") == true)
    }

    @Test func ifdLoopsAreRefused() {
        // The Exif IFD pointer leads back to IFD0.
        var toIFD0 = TIFFBuilder.photo()
        toIFD0.exifPointer = 8
        #expect(jpegReason(toIFD0)?.contains("loop") == true)
        // The GPS IFD pointer leads to the Exif IFD already read.
        var gpsToExif = TIFFBuilder.photo(gps: TIFFBuilder.gps(latitudeRef: "N", latitude: (1, 0, 0), longitudeRef: "E", longitude: (1, 0, 0)))
        let exifOffset: UInt32 = 62  // Header (8), then IFD0: 2 + 12 × 4 entries + 4.
        gpsToExif.gpsPointer = exifOffset
        #expect(jpegReason(gpsToExif)?.contains("loop") == true)
    }

    @Test func wildCountsAndOffsets() {
        var wildExif = TIFFBuilder.photo()
        wildExif.exifPointer = 0xFFFF_FFF0
        #expect(jpegReason(wildExif)?.contains("the Exif IFD") == true)
        // An entry count far past the structure.
        var hugeCount = TIFFBuilder.photo().bytes()
        hugeCount[8...9] = [0xFF, 0xFF]
        #expect(reason(MediaFixtures.jpeg(tiff: hugeCount))?.contains("65535 entries") == true)
        // A value whose count runs past the end.
        let longDate = TIFFBuilder(ifd0: [], exif: [(0x9003, .raw(type: 2, count: 0x0FFF_FFFF, bytes: [0, 0, 0, 8]))])
        #expect(jpegReason(longDate)?.contains("DateTimeOriginal") == true)
    }

    @Test func exifValues() {
        #expect(jpegReason(TIFFBuilder.photo(date: "2024:02:30 10:00:00"))?.contains("not a real date") == true)
        #expect(jpegReason(TIFFBuilder.photo(date: "2024-07-14 18:30:05"))?.contains("YYYY:MM:DD") == true)
        #expect(jpegReason(TIFFBuilder.photo(offset: "+9:00"))?.contains("±HH:MM") == true)
        #expect(jpegReason(TIFFBuilder.photo(offset: "+25:00"))?.contains("out of range") == true)
        #expect(jpegReason(TIFFBuilder.photo(subsec: "1a"))?.contains("SubSecTimeOriginal") == true)
        let shortDate = TIFFBuilder(ifd0: [], exif: [(0x9003, .short(2024))])
        #expect(jpegReason(shortDate)?.contains("DateTimeOriginal has TIFF type 3") == true)
        let widthOnlyType = TIFFBuilder(ifd0: [], exif: [(0xA002, .ascii("wide"))])
        #expect(jpegReason(widthOnlyType)?.contains("PixelXDimension") == true)
    }

    @Test func gpsValues() {
        func gps(_ entries: [(UInt16, TIFFValue)]) -> String? { jpegReason(TIFFBuilder.photo(gps: entries)) }
        let good = TIFFBuilder.gps(latitudeRef: "N", latitude: (10, 0, 0), longitudeRef: "E", longitude: (10, 0, 0), altitude: (1, 1))
        func replacing(_ tag: UInt16, with value: TIFFValue?) -> [(UInt16, TIFFValue)] {
            good.compactMap { $0.0 == tag ? value.map { (tag, $0) } : $0 }
        }
        #expect(gps(replacing(0x0001, with: .ascii("X")))?.contains("GPSLatitudeRef is \"X\"") == true)
        #expect(gps(replacing(0x0003, with: nil))?.contains("GPSLongitudeRef is missing") == true)
        #expect(gps(replacing(0x0002, with: .rationals([(10, 0), (0, 1), (0, 1)])))?.contains("zero denominator") == true)
        #expect(gps(replacing(0x0002, with: .rationals([(10, 1), (0, 1)])))?.contains("2 values, not 3") == true)
        #expect(gps(replacing(0x0002, with: .rationals([(95, 1), (0, 1), (0, 1)])))?.contains("off the globe") == true)
        #expect(gps(replacing(0x0005, with: .byte(7)))?.contains("GPSAltitudeRef is 7") == true)
        #expect(gps(replacing(0x0006, with: .ascii("high")))?.contains("GPSAltitude has TIFF type 2") == true)
    }

    @Test func pngStructure() {
        var badCRC = MediaFixtures.png()
        badCRC[29] ^= 0xFF  // IHDR's CRC.
        #expect(reason(badCRC)?.contains("fails its CRC") == true)
        let noIHDR = PNGReader.signature + MediaFixtures.chunk("IDAT", [1]) + MediaFixtures.chunk("IEND", [])
        #expect(reason(noIHDR)?.contains("not IHDR") == true)
        let png = MediaFixtures.png()
        #expect(reason(Array(png.dropLast(12)))?.contains("chunk header") == true)
        var hugeChunk = png
        hugeChunk[33...36] = [0x7F, 0xFF, 0xFF, 0xF0]  // IDAT's length.
        #expect(reason(hugeChunk)?.contains("IDAT") == true)
        let zeroWidth = PNGReader.signature + MediaFixtures.chunk("IHDR", MediaFixtures.be32(0) + MediaFixtures.be32(5) + [8, 2, 0, 0, 0])
            + MediaFixtures.chunk("IEND", [])
        #expect(reason(zeroWidth)?.contains("0×5") == true)
        var badExif = TIFFBuilder.photo().bytes()
        badExif[0] = 0
        #expect(reason(MediaFixtures.png(exif: badExif))?.contains("not II or MM") == true)
    }

    @Test func isoStructure() {
        let movie = MediaFixtures.movie(creation: 100)
        #expect(reason(Array(movie.dropLast(10)))?.contains("moov") == true)
        var tinyBox = movie
        tinyBox[0...3] = [0, 0, 0, 4]
        #expect(reason(tinyBox)?.contains("has size 4") == true)
        let noMoov = MediaFixtures.box("ftyp", Array("isom".utf8) + MediaFixtures.be32(0)) + MediaFixtures.box("mdat", [1, 2, 3])
        #expect(reason(noMoov)?.contains("no moov box") == true)
        let badVersion = MediaFixtures.box("ftyp", Array("isom".utf8) + MediaFixtures.be32(0))
            + MediaFixtures.box("moov", MediaFixtures.box("mvhd", [2] + [UInt8](repeating: 0, count: 99)))
        #expect(reason(badVersion)?.contains("mvhd has version 2") == true)
        let shortTkhd = MediaFixtures.box("ftyp", Array("isom".utf8) + MediaFixtures.be32(0))
            + MediaFixtures.box("moov", MediaFixtures.mvhd(version: 0, creation: 5)
                + MediaFixtures.box("trak", MediaFixtures.box("tkhd", [0, 0, 0, 0, 1, 2])))
        #expect(reason(shortTkhd)?.contains("tkhd") == true)
        let hugeLarge = MediaFixtures.box("ftyp", Array("isom".utf8) + MediaFixtures.be32(0))
            + MediaFixtures.be32(1) + Array("mdat".utf8) + MediaFixtures.be64(UInt64.max)
        #expect(reason(hugeLarge)?.contains("64-bit") == true || reason(hugeLarge)?.contains("claims") == true)
    }
}
