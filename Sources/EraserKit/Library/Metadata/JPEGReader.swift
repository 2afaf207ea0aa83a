/// Walks a JPEG's markers (ITU T.81 B.1) from SOI to the first SOS: the first `APP1` segment that
/// starts with `Exif\0\0` is read as EXIF, the first SOFn frame header gives the pixel size.
/// Each segment's length is checked against the file; the walk always moves forward.
enum JPEGReader {
    /// What the markers before the image data hold.
    struct Result {
        var exif: ExifReader.Fields?
        /// The frame header's size (`nil` for a height of 0, defined later by DNL).
        var frameWidth: Int?
        var frameHeight: Int?
    }

    /// More segments than this before the image data is not a photo.
    static let maximumSegments = 65_536

    static func read(_ source: some MediaByteSource) throws(MetadataFailure) -> Result {
        let soi = try source.read(at: 0, length: 2, what: "the SOI marker")
        guard try soi.u16(0, what: "SOI") == 0xFFD8 else { throw MetadataFailure("the file does not start with a JPEG SOI marker") }
        var result = Result()
        var sawFrame = false
        var offset = 2
        for _ in 0..<maximumSegments {
            guard offset < source.count else { throw MetadataFailure("the file ends at offset \(offset) before the image data (no SOS marker)") }
            guard try source.read(at: offset, length: 1, what: "a marker").u8(0, what: "a marker") == 0xFF else {
                throw MetadataFailure("expected a marker (0xFF) at offset \(offset)")
            }
            // Any number of 0xFF fill bytes may precede a marker code.
            var marker: UInt8 = 0xFF
            var fill = 0
            while marker == 0xFF {
                offset += 1
                fill += 1
                guard fill <= 1024 else { throw MetadataFailure("more than 1024 fill bytes at offset \(offset)") }
                marker = try source.read(at: offset, length: 1, what: "a marker code").u8(0, what: "a marker code")
            }
            let markerOffset = offset - 1
            offset += 1
            switch marker {
            case 0x01, 0xD0...0xD7:
                continue  // TEM, RSTn: no length.
            case 0xD9, 0xDA:
                // EOI or SOS: everything before the image data has been read.
                guard sawFrame else { throw MetadataFailure("the image data starts at offset \(markerOffset) before any frame header (SOFn)") }
                return result
            case 0x00, 0xD8:
                throw MetadataFailure("unexpected marker 0xFF\(hex(marker)) at offset \(markerOffset)")
            default:
                break
            }
            let length = Int(try source.read(at: offset, length: 2, what: "a segment length").u16(0, what: "a segment length"))
            guard length >= 2 else { throw MetadataFailure("the segment 0xFF\(hex(marker)) at offset \(markerOffset) has length \(length)") }
            let payloadOffset = offset + 2, payloadLength = length - 2
            try source.checkRange(payloadOffset, payloadLength, what: "segment 0xFF\(hex(marker))")
            if marker == 0xE1, result.exif == nil, payloadLength >= 6 {
                let payload = try source.read(at: payloadOffset, length: payloadLength, what: "the APP1 segment")
                if payload.starts(with: Array("Exif".utf8) + [0, 0]) {
                    result.exif = try ExifReader(tiff: try payload.suffix(from: 6, what: "the EXIF TIFF structure")).read()
                }
            } else if isFrameHeader(marker), !sawFrame {
                let header = try source.read(at: payloadOffset, length: payloadLength, what: "the frame header")
                let height = Int(try header.u16(1, what: "the frame height"))
                let width = Int(try header.u16(3, what: "the frame width"))
                guard width > 0 else { throw MetadataFailure("the frame header at offset \(markerOffset) has width 0") }
                result.frameWidth = width
                result.frameHeight = height > 0 ? height : nil
                sawFrame = true
            }
            offset = payloadOffset + payloadLength
        }
        throw MetadataFailure("more than \(maximumSegments) segments before the image data")
    }

    /// SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    static func isFrameHeader(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }
}
