/// Walks a PNG's chunks (PNG 3rd edition, section 5) from the signature to `IEND`: `IHDR` (which
/// must come first) gives the pixel size, an `eXIf` chunk (section 11.3.3.6) is read as EXIF.
/// The CRCs of those two chunks are checked; the others are skipped unread.
enum PNGReader {
    struct Result {
        var width: Int
        var height: Int
        var exif: ExifReader.Fields?
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// A larger `eXIf` is not a photo's metadata.
    static let maximumExifLength = 4 << 20
    /// More chunks than this is not a photo.
    static let maximumChunks = 1 << 20

    static func read(_ source: some MediaByteSource) throws(MetadataFailure) -> Result {
        guard try source.read(at: 0, length: 8, what: "the PNG signature").array == signature else {
            throw MetadataFailure("the file does not start with the PNG signature")
        }
        var result: Result?
        var offset = 8
        for index in 0..<maximumChunks {
            let header = try source.read(at: offset, length: 8, what: "a chunk header")
            let length = Int(try header.u32(0, what: "a chunk length"))
            let type = try header.fourCC(4, what: "a chunk type")
            guard length <= Int(Int32.max) else { throw MetadataFailure("the \(type) chunk at offset \(offset) claims \(length) bytes") }
            try source.checkRange(offset + 8, length + 4, what: "the \(type) chunk")
            if index == 0 && type != "IHDR" { throw MetadataFailure("the first chunk is \(type), not IHDR") }
            switch type {
            case "IHDR":
                guard index == 0, length == 13 else { throw MetadataFailure("the IHDR chunk at offset \(offset) is misplaced or not 13 bytes") }
                let data = try checkedData(source, at: offset, length: length, type: type)
                let width = Int(try data.u32(0, what: "the width")), height = Int(try data.u32(4, what: "the height"))
                guard (1...Int(Int32.max)).contains(width), (1...Int(Int32.max)).contains(height) else {
                    throw MetadataFailure("IHDR gives the size \(width)×\(height)")
                }
                result = Result(width: width, height: height)
            case "eXIf" where result?.exif == nil:
                guard length <= maximumExifLength else { throw MetadataFailure("the eXIf chunk is \(length) bytes") }
                var data = try checkedData(source, at: offset, length: length, type: type)
                // The standard's eXIf holds the bare TIFF structure; some writers keep JPEG's prefix.
                if data.starts(with: Array("Exif".utf8) + [0, 0]) { data = try data.suffix(from: 6, what: "the eXIf TIFF structure") }
                result?.exif = try ExifReader(tiff: data).read()
            case "IEND":
                guard let result else { throw MetadataFailure("IEND before IHDR") }
                return result
            default:
                break
            }
            offset += 12 + length
        }
        throw MetadataFailure("more than \(maximumChunks) chunks")
    }

    /// A chunk's data after checking its CRC (over the type and the data).
    static func checkedData(_ source: some MediaByteSource, at offset: Int, length: Int, type: String) throws(MetadataFailure) -> MediaBytes {
        let chunk = try source.read(at: offset + 4, length: length + 8, what: "the \(type) chunk")
        let stored = try chunk.u32(length + 4, what: "the \(type) CRC")
        guard PNGCRC32.checksum(try chunk.slice(0, length + 4, what: "the \(type) chunk").array) == stored else {
            throw MetadataFailure("the \(type) chunk at offset \(offset) fails its CRC")
        }
        return try chunk.slice(4, length, what: "the \(type) data")
    }
}

/// CRC-32 (ISO 3309, the polynomial 0xEDB88320 reflected), as PNG uses it.
enum PNGCRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
