import Foundation

/// Reads the few EXIF fields the library needs from a TIFF structure (the payload of a JPEG's
/// `APP1 "Exif\0\0"` segment or of a PNG's `eXIf` chunk), as CIPA DC-008 (EXIF 2.32) lays it out:
/// an 8-byte header (`II*\0` little-endian or `MM\0*` big-endian, then IFD0's offset), IFD0 with
/// pointers to the Exif IFD (tag 0x8769) and the GPS IFD (0x8825). Offsets count from the
/// header's first byte.
///
/// Only IFD0, the Exif IFD and the GPS IFD are visited, each at most once (a pointer back to a
/// visited IFD is a loop and fails); the IFD chains (`next IFD`, the thumbnail's IFD1) are not
/// followed. Every offset and count is checked against the structure's size.
struct ExifReader {
    /// What the TIFF structure holds.
    struct Fields: Equatable {
        var dateTimeOriginal: ExifDateTime?
        var pixelWidth: Int?
        var pixelHeight: Int?
        var location: GeoLocation?
    }

    /// One 12-byte IFD entry.
    struct Entry {
        let tag: UInt16
        let type: UInt16
        let count: UInt32
        /// Where the value is: inside the entry when it fits in 4 bytes, else at an offset.
        let valueOffset: Int
    }

    let tiff: MediaBytes
    let bigEndian: Bool

    /// Checks the header.
    init(tiff: MediaBytes) throws(MetadataFailure) {
        self.tiff = tiff
        let order = try tiff.u16(0, what: "the TIFF byte order")
        switch order {
        case 0x4949: bigEndian = false  // "II"
        case 0x4D4D: bigEndian = true  // "MM"
        default: throw MetadataFailure("the TIFF header starts with 0x\(String(order, radix: 16)), not II or MM")
        }
        guard try tiff.u16(2, bigEndian: bigEndian, what: "the TIFF magic number") == 42 else {
            throw MetadataFailure("the TIFF magic number is not 42")
        }
    }

    /// Reads IFD0, the Exif IFD and the GPS IFD.
    func read() throws(MetadataFailure) -> Fields {
        var visited: Set<Int> = []
        let ifd0Offset = Int(try tiff.u32(4, bigEndian: bigEndian, what: "IFD0's offset"))
        let ifd0 = try entries(at: ifd0Offset, name: "IFD0", visited: &visited)
        var fields = Fields()
        // IFD0's ImageWidth/ImageLength describe a TIFF's own image; JPEG and PNG files use the
        // Exif IFD's PixelXDimension/PixelYDimension.
        if let pointer = ifd0[0x8769] {
            let exif = try entries(at: try pointerValue(pointer, name: "ExifIFDPointer"), name: "the Exif IFD", visited: &visited)
            if let entry = exif[0xA002] { fields.pixelWidth = try dimension(entry, name: "PixelXDimension") }
            if let entry = exif[0xA003] { fields.pixelHeight = try dimension(entry, name: "PixelYDimension") }
            if let entry = exif[0x9003], var date = try ExifDateTime.parse(try ascii(entry, name: "DateTimeOriginal")) {
                if let offset = exif[0x9011] {
                    date.offsetSeconds = try ExifDateTime.parseOffset(try ascii(offset, name: "OffsetTimeOriginal"))
                }
                if let subsec = exif[0x9291] { date.fraction = try fraction(try ascii(subsec, name: "SubSecTimeOriginal")) }
                fields.dateTimeOriginal = date
            }
        }
        if let pointer = ifd0[0x8825] {
            let gps = try entries(at: try pointerValue(pointer, name: "GPSInfoIFDPointer"), name: "the GPS IFD", visited: &visited)
            fields.location = try location(gps)
        }
        return fields
    }

    // MARK: - IFDs and values

    /// The entries of the IFD at `offset`, by tag (the first of a repeated tag wins).
    func entries(at offset: Int, name: String, visited: inout Set<Int>) throws(MetadataFailure) -> [UInt16: Entry] {
        guard offset >= 8 else { throw MetadataFailure("\(name) would start at offset \(offset), inside the TIFF header") }
        guard visited.insert(offset).inserted else {
            throw MetadataFailure("\(name) at offset \(offset) is an IFD already read (a loop)")
        }
        let count = Int(try tiff.u16(offset, bigEndian: bigEndian, what: "\(name)'s entry count"))
        // Checked once for the whole table (2 + 12 × count bytes), before any entry is read.
        _ = try tiff.slice(offset + 2, count * 12, what: "\(name)'s \(count) entries")
        var result: [UInt16: Entry] = [:]
        for index in 0..<count {
            let at = offset + 2 + index * 12
            let tag = try tiff.u16(at, bigEndian: bigEndian, what: "an entry's tag")
            let type = try tiff.u16(at + 2, bigEndian: bigEndian, what: "an entry's type")
            let valueCount = try tiff.u32(at + 4, bigEndian: bigEndian, what: "an entry's count")
            let size = Self.typeSize(type).map { UInt64($0) * UInt64(valueCount) }
            let valueOffset: Int
            if let size, size > 4 {
                valueOffset = Int(try tiff.u32(at + 8, bigEndian: bigEndian, what: "an entry's value offset"))
            } else {
                valueOffset = at + 8
            }
            if result[tag] == nil { result[tag] = Entry(tag: tag, type: type, count: valueCount, valueOffset: valueOffset) }
        }
        return result
    }

    /// Bytes per value of a TIFF type, `nil` for a type this reader does not know.
    static func typeSize(_ type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1  // BYTE, ASCII, SBYTE, UNDEFINED
        case 3, 8: 2  // SHORT, SSHORT
        case 4, 9, 11, 13: 4  // LONG, SLONG, FLOAT, IFD
        case 5, 10, 12: 8  // RATIONAL, SRATIONAL, DOUBLE
        default: nil
        }
    }

    /// The bytes of an entry's value, after checking its type is one of `types`.
    func value(_ entry: Entry, types: Set<UInt16>, name: String, count expected: Int? = nil) throws(MetadataFailure) -> MediaBytes {
        guard types.contains(entry.type), let size = Self.typeSize(entry.type) else {
            throw MetadataFailure("\(name) has TIFF type \(entry.type)")
        }
        if let expected, entry.count != expected {
            throw MetadataFailure("\(name) has \(entry.count) values, not \(expected)")
        }
        guard entry.count <= UInt32(tiff.count) else { throw MetadataFailure("\(name) claims \(entry.count) values") }
        return try tiff.slice(entry.valueOffset, Int(entry.count) * size, what: name)
    }

    func pointerValue(_ entry: Entry, name: String) throws(MetadataFailure) -> Int {
        let bytes = try value(entry, types: [4, 13], name: name, count: 1)
        return Int(try bytes.u32(0, bigEndian: bigEndian, what: name))
    }

    func dimension(_ entry: Entry, name: String) throws(MetadataFailure) -> Int? {
        let bytes = try value(entry, types: [3, 4], name: name, count: 1)
        let number = entry.type == 3 ? Int(try bytes.u16(0, bigEndian: bigEndian, what: name))
                                     : Int(try bytes.u32(0, bigEndian: bigEndian, what: name))
        return number > 0 ? number : nil
    }

    /// An ASCII value up to its first NUL.
    func ascii(_ entry: Entry, name: String) throws(MetadataFailure) -> String {
        let bytes = try value(entry, types: [2], name: name).array
        let text = bytes.prefix { $0 != 0 }
        guard text.allSatisfy({ $0 < 0x80 }) else { throw MetadataFailure("\(name) is not ASCII") }
        return String(decoding: text, as: UTF8.self)
    }

    /// `SubSecTimeOriginal`: the digits after the decimal point.
    func fraction(_ digits: String) throws(MetadataFailure) -> Double {
        let trimmed = digits.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return 0 }
        guard trimmed.utf8.count <= 9, trimmed.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Double("0." + trimmed) else {
            throw MetadataFailure("SubSecTimeOriginal \"\(digits)\" is not digits")
        }
        return value
    }

    /// The `index`-th unsigned RATIONAL of a value.
    func rational(_ bytes: MediaBytes, _ index: Int, name: String) throws(MetadataFailure) -> Double {
        let numerator = try bytes.u32(index * 8, bigEndian: bigEndian, what: name)
        let denominator = try bytes.u32(index * 8 + 4, bigEndian: bigEndian, what: name)
        guard denominator != 0 else { throw MetadataFailure("\(name) has a zero denominator") }
        return Double(numerator) / Double(denominator)
    }

    // MARK: - GPS

    /// The position in a GPS IFD: `nil` unless both latitude and longitude are there.
    func location(_ gps: [UInt16: Entry]) throws(MetadataFailure) -> GeoLocation? {
        guard let latitudeEntry = gps[0x0002], let longitudeEntry = gps[0x0004] else { return nil }
        let latitude = try degrees(latitudeEntry, name: "GPSLatitude")
            * (try hemisphere(gps[0x0001], positive: "N", negative: "S", name: "GPSLatitudeRef"))
        let longitude = try degrees(longitudeEntry, name: "GPSLongitude")
            * (try hemisphere(gps[0x0003], positive: "E", negative: "W", name: "GPSLongitudeRef"))
        guard abs(latitude) <= 90, abs(longitude) <= 180 else {
            throw MetadataFailure("the GPS position \(latitude), \(longitude) is off the globe")
        }
        var altitude: Double?
        if let altitudeEntry = gps[0x0006] {
            let metres = try rational(try value(altitudeEntry, types: [5], name: "GPSAltitude", count: 1), 0, name: "GPSAltitude")
            var below = false
            if let reference = gps[0x0005] {
                // BYTE per the standard; some writers use UNDEFINED.
                let byte = try value(reference, types: [1, 7], name: "GPSAltitudeRef", count: 1)
                switch try byte.u8(0, what: "GPSAltitudeRef") {
                case 0: below = false
                case 1: below = true
                case let other: throw MetadataFailure("GPSAltitudeRef is \(other), not 0 or 1")
                }
            }
            altitude = below ? -metres : metres
        }
        return GeoLocation(latitude: latitude, longitude: longitude, altitude: altitude)
    }

    /// Degrees, minutes and seconds (three RATIONALs) as degrees.
    func degrees(_ entry: Entry, name: String) throws(MetadataFailure) -> Double {
        let bytes = try value(entry, types: [5], name: name, count: 3)
        let d = try rational(bytes, 0, name: name), m = try rational(bytes, 1, name: name), s = try rational(bytes, 2, name: name)
        return d + m / 60 + s / 3600
    }

    /// +1 or -1 from a reference letter.
    func hemisphere(_ entry: Entry?, positive: String, negative: String, name: String) throws(MetadataFailure) -> Double {
        guard let entry else { throw MetadataFailure("\(name) is missing") }
        switch try ascii(entry, name: name) {
        case positive: return 1
        case negative: return -1
        case let other: throw MetadataFailure("\(name) is \"\(other)\", not \(positive) or \(negative)")
        }
    }
}
