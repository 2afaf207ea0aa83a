import Foundation

@testable import EraserKit

/// A TIFF value for `TIFFBuilder`.
enum TIFFValue {
    case ascii(String)
    case byte(UInt8)
    case short(UInt16)
    case long(UInt32)
    case rationals([(UInt32, UInt32)])
    /// Any type and count, with the value's bytes as given (already in the file's byte order).
    case raw(type: UInt16, count: UInt32, bytes: [UInt8])
}

/// Assembles a TIFF structure byte by byte, as EXIF lays it out: the header, IFD0 (with pointers
/// to the Exif and GPS IFDs when they are given), the Exif IFD, the GPS IFD, then the values
/// that do not fit in an entry. Entries are written in ascending tag order.
struct TIFFBuilder {
    var bigEndian = true
    var ifd0: [(UInt16, TIFFValue)] = []
    var exif: [(UInt16, TIFFValue)]?
    var gps: [(UInt16, TIFFValue)]?
    /// Written instead of the real Exif IFD offset (to make loops and wild pointers).
    var exifPointer: UInt32?
    var gpsPointer: UInt32?

    func bytes() -> [UInt8] {
        var zero = ifd0
        if exif != nil { zero.append((0x8769, .long(0))) }
        if gps != nil { zero.append((0x8825, .long(0))) }
        let tables = [zero, exif ?? [], gps ?? []]
        let sizes = tables.map { 2 + 12 * $0.count + 4 }
        let ifd0Offset = 8
        let exifOffset = ifd0Offset + sizes[0]
        let gpsOffset = exifOffset + (exif == nil ? 0 : sizes[1])
        var dataOffset = gpsOffset + (gps == nil ? 0 : sizes[2])
        var out: [UInt8] = bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
        out += u32(UInt32(ifd0Offset))
        var data: [UInt8] = []
        for (index, table) in tables.enumerated() where index == 0 || (index == 1 && exif != nil) || (index == 2 && gps != nil) {
            var entries: [(UInt16, TIFFValue)] = []
            for (tag, value) in table {
                switch (index, tag) {
                case (0, 0x8769): entries.append((tag, .long(exifPointer ?? UInt32(exifOffset))))
                case (0, 0x8825): entries.append((tag, .long(gpsPointer ?? UInt32(gpsOffset))))
                default: entries.append((tag, value))
                }
            }
            entries.sort { $0.0 < $1.0 }
            out += u16(UInt16(entries.count))
            for (tag, value) in entries {
                let (type, count, bytes) = encode(value)
                out += u16(tag) + u16(type) + u32(count)
                if bytes.count <= 4 {
                    out += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
                } else {
                    out += u32(UInt32(dataOffset))
                    data += bytes
                    dataOffset += bytes.count
                    if bytes.count % 2 == 1 { data.append(0); dataOffset += 1 }
                }
            }
            out += u32(0)  // No next IFD.
        }
        return out + data
    }

    func encode(_ value: TIFFValue) -> (UInt16, UInt32, [UInt8]) {
        switch value {
        case .ascii(let text): return (2, UInt32(text.utf8.count + 1), Array(text.utf8) + [0])
        case .byte(let byte): return (1, 1, [byte])
        case .short(let number): return (3, 1, u16(number))
        case .long(let number): return (4, 1, u32(number))
        case .rationals(let list): return (5, UInt32(list.count), list.flatMap { u32($0.0) + u32($0.1) })
        case .raw(let type, let count, let bytes): return (type, count, bytes)
        }
    }

    func u16(_ value: UInt16) -> [UInt8] {
        let bytes = [UInt8(value >> 8), UInt8(value & 0xFF)]
        return bigEndian ? bytes : bytes.reversed()
    }

    func u32(_ value: UInt32) -> [UInt8] {
        let bytes = (0..<4).map { UInt8((value >> (24 - 8 * UInt32($0))) & 0xFF) }
        return bigEndian ? bytes : bytes.reversed()
    }

    /// The usual photo: a date with or without offset, a size and a GPS position.
    static func photo(
        bigEndian: Bool = true, date: String? = "2024:07:14 18:30:05", offset: String? = nil, subsec: String? = nil,
        size: (UInt32, UInt32)? = (4032, 3024), gps: [(UInt16, TIFFValue)]? = nil
    ) -> TIFFBuilder {
        var exif: [(UInt16, TIFFValue)] = []
        if let date { exif.append((0x9003, .ascii(date))) }
        if let offset { exif.append((0x9011, .ascii(offset))) }
        if let subsec { exif.append((0x9291, .ascii(subsec))) }
        if let size { exif += [(0xA002, .long(size.0)), (0xA003, .long(size.1))] }
        return TIFFBuilder(bigEndian: bigEndian, ifd0: [(0x010F, .ascii("Kindred")), (0x0110, .ascii("Test Camera"))], exif: exif, gps: gps)
    }

    /// A GPS IFD: latitude and longitude as degrees, minutes and hundredths of seconds.
    static func gps(
        latitudeRef: String, latitude: (UInt32, UInt32, UInt32), longitudeRef: String, longitude: (UInt32, UInt32, UInt32),
        altitude: (UInt32, UInt32)? = nil, belowSeaLevel: Bool = false
    ) -> [(UInt16, TIFFValue)] {
        var entries: [(UInt16, TIFFValue)] = [
            (0x0000, .raw(type: 1, count: 4, bytes: [2, 3, 0, 0])),  // GPSVersionID
            (0x0001, .ascii(latitudeRef)),
            (0x0002, .rationals([(latitude.0, UInt32(1)), (latitude.1, UInt32(1)), (latitude.2, UInt32(100))])),
            (0x0003, .ascii(longitudeRef)),
            (0x0004, .rationals([(longitude.0, UInt32(1)), (longitude.1, UInt32(1)), (longitude.2, UInt32(100))])),
        ]
        if let altitude {
            entries += [(0x0005, .byte(belowSeaLevel ? 1 : 0)), (0x0006, .rationals([altitude]))]
        }
        return entries
    }
}

/// Minimal JPEG, PNG and ISO BMFF files assembled byte by byte.
enum MediaFixtures {
    /// SOI, an optional `APP1 "Exif\0\0"` with `tiff`, a JFIF APP0, a SOF0 frame header, SOS, a few
    /// entropy-coded bytes and EOI. Enough for a metadata reader (not for a decoder).
    static func jpeg(tiff: [UInt8]?, width: UInt16 = 640, height: UInt16 = 480, exifFirst: Bool = true) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        let app0 = segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        let app1 = tiff.map { segment(0xE1, Array("Exif".utf8) + [0, 0] + $0) } ?? []
        out += exifFirst ? app1 + app0 : app0 + app1
        out += segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))  // DQT
        out += segment(0xC0, [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0])
        out += segment(0xDA, [1, 1, 0x00, 0, 63, 0])
        out += [0x12, 0x34, 0xFF, 0x00, 0x56, 0xFF, 0xD9]
        return out
    }

    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// The PNG signature, IHDR, an optional `eXIf`, an IDAT and IEND, each with its CRC.
    static func png(width: UInt32 = 320, height: UInt32 = 200, exif: [UInt8]? = nil) -> [UInt8] {
        var out = PNGReader.signature
        out += chunk("IHDR", be32(width) + be32(height) + [8, 2, 0, 0, 0])
        if let exif { out += chunk("eXIf", exif) }
        out += chunk("IDAT", [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])
        out += chunk("IEND", [])
        return out
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(PNGCRC32.checksum(body))
    }

    static func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (24 - 8 * UInt32($0))) & 0xFF) } }
    static func be64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8((value >> (56 - 8 * UInt64($0))) & 0xFF) } }
    static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(UInt32(payload.count + 8)) + Array(type.utf8) + payload
    }

    /// A box with a 64-bit size (`size` field 1).
    static func largeBox(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(1) + Array(type.utf8) + be64(UInt64(payload.count + 16)) + payload
    }

    /// Seconds since 1904-01-01 for a date.
    static func seconds1904(_ date: Date) -> UInt64 { UInt64(date.timeIntervalSince1970 + 2_082_844_800) }

    static func mvhd(version: UInt8, creation: UInt64) -> [UInt8] {
        var payload: [UInt8] = [version, 0, 0, 0]
        if version == 1 {
            payload += be64(creation) + be64(creation) + be32(600) + be64(6000)
        } else {
            payload += be32(UInt32(creation)) + be32(UInt32(creation)) + be32(600) + be32(6000)
        }
        payload += be32(0x0001_0000) + be16(0x0100) + [UInt8](repeating: 0, count: 10)
        payload += identityMatrix + [UInt8](repeating: 0, count: 24) + be32(3)
        return box("mvhd", payload)
    }

    static let identityMatrix: [UInt8] = be32(0x0001_0000) + be32(0) + be32(0) + be32(0) + be32(0x0001_0000) + be32(0)
        + be32(0) + be32(0) + be32(0x4000_0000)

    static func tkhd(version: UInt8, width: UInt32, height: UInt32, trackID: UInt32) -> [UInt8] {
        var payload: [UInt8] = [version, 0, 0, 7]
        if version == 1 {
            payload += be64(0) + be64(0) + be32(trackID) + be32(0) + be64(6000)
        } else {
            payload += be32(0) + be32(0) + be32(trackID) + be32(0) + be32(6000)
        }
        payload += [UInt8](repeating: 0, count: 8) + be16(0) + be16(0) + be16(0) + be16(0)
        payload += identityMatrix + be32(width << 16) + be32(height << 16)
        return box("tkhd", payload)
    }

    static func trak(handler: String, width: UInt32, height: UInt32, trackID: UInt32, tkhdVersion: UInt8 = 0) -> [UInt8] {
        let hdlr = box("hdlr", [0, 0, 0, 0] + be32(0) + Array(handler.utf8) + [UInt8](repeating: 0, count: 12) + Array("Handler".utf8) + [0])
        return box("trak", tkhd(version: tkhdVersion, width: width, height: height, trackID: trackID) + box("mdia", hdlr))
    }

    /// ftyp, (mdat before moov when `moovLast`), moov with mvhd, an audio track and a video track.
    static func movie(
        brand: String = "isom", mvhdVersion: UInt8 = 0, creation: UInt64, width: UInt32 = 1920, height: UInt32 = 1080,
        tkhdVersion: UInt8 = 0, moovLast: Bool = true, largeMdat: Bool = false
    ) -> [UInt8] {
        let ftyp = box("ftyp", Array(brand.utf8) + be32(0x200) + Array(brand.utf8) + Array("mp41".utf8))
        let moov = box("moov", mvhd(version: mvhdVersion, creation: creation)
            + trak(handler: "soun", width: 0, height: 0, trackID: 1)
            + trak(handler: "vide", width: width, height: height, trackID: 2, tkhdVersion: tkhdVersion))
        let frames = [UInt8](repeating: 0xAB, count: 64)
        let mdat = largeMdat ? largeBox("mdat", frames) : box("mdat", frames)
        return ftyp + (moovLast ? mdat + moov : moov + mdat)
    }

    /// An HEIC's opening: ftyp with the `heic` brand and an empty meta box.
    static func heic() -> [UInt8] {
        box("ftyp", Array("heic".utf8) + be32(0) + Array("mif1heic".utf8)) + box("meta", [0, 0, 0, 0])
    }
}

/// SplitMix64: a small seeded generator, so every run makes the same cases.
struct MutationRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
