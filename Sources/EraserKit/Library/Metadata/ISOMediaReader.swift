import Foundation

/// Reads an ISO base media file (ISO/IEC 14496-12: MP4, M4V, QuickTime MOV, HEIC) by walking its
/// box tree: `ftyp`'s brand tells a still image (HEIC/AVIF, recognised and not parsed further)
/// from a movie; a movie's `moov/mvhd` gives the creation time (seconds since 1904-01-01 UTC,
/// version 0 or 1) and the video track's `trak/tkhd` (the one whose `mdia/hdlr` is `vide`)
/// its width and height (16.16 fixed point). Every box's size is checked against its parent; the
/// walk only moves forward and visits a bounded number of boxes.
enum ISOMediaReader {
    struct Result {
        var format: MediaFormat
        var creationDate: Date?
        var width: Int?
        var height: Int?
    }

    /// One box: its type and where its payload lies.
    struct Box {
        let type: String
        let offset: Int
        let payloadOffset: Int
        let payloadLength: Int
    }

    /// Major brands of still images (HEIF, HEIC, AVIF and their sequences).
    static let imageBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif", "avis"]
    /// Box types that may open a QuickTime file that has no `ftyp`.
    static let leadingTypes: Set<String> = ["ftyp", "moov", "mdat", "wide", "free", "skip", "pnot"]
    /// More boxes than this at one level is not a media file.
    static let maximumBoxes = 65_536
    /// Seconds from 1904-01-01 to 1970-01-01.
    static let epochOffset: UInt64 = 2_082_844_800

    static func read(_ source: some MediaByteSource) throws(MetadataFailure) -> Result {
        let top = try children(source, from: 0, to: source.count, parent: "the file")
        if let ftyp = top.first(where: { $0.type == "ftyp" }) {
            let brand = try source.read(at: ftyp.payloadOffset, length: 4, what: "the major brand").fourCC(0, what: "the major brand")
            if imageBrands.contains(brand) { return Result(format: .heic) }
        }
        guard let moov = top.first(where: { $0.type == "moov" }) else { throw MetadataFailure("the movie has no moov box") }
        let movie = try children(source, from: moov.payloadOffset, to: moov.payloadOffset + moov.payloadLength, parent: "moov")
        guard let mvhd = movie.first(where: { $0.type == "mvhd" }) else { throw MetadataFailure("moov has no mvhd box") }
        var result = Result(format: .isoMovie, creationDate: try creationDate(source, mvhd))
        var firstSized: (Int, Int)?
        for trak in movie where trak.type == "trak" {
            let track = try children(source, from: trak.payloadOffset, to: trak.payloadOffset + trak.payloadLength, parent: "trak")
            guard let tkhd = track.first(where: { $0.type == "tkhd" }) else { throw MetadataFailure("the trak at offset \(trak.offset) has no tkhd") }
            let size = try trackSize(source, tkhd)
            if try handler(source, track) == "vide" {
                result.width = size?.0
                result.height = size?.1
                return result
            }
            if firstSized == nil, let size { firstSized = size }
        }
        // No track says it is video: the first one with a picture size.
        if let firstSized {
            result.width = firstSized.0
            result.height = firstSized.1
        }
        return result
    }

    /// The boxes in `[start, end)`.
    static func children(_ source: some MediaByteSource, from start: Int, to end: Int, parent: String) throws(MetadataFailure) -> [Box] {
        var boxes: [Box] = []
        var offset = start
        while offset < end {
            guard boxes.count < maximumBoxes else { throw MetadataFailure("more than \(maximumBoxes) boxes in \(parent)") }
            guard end - offset >= 8 else { throw MetadataFailure("\(end - offset) stray bytes at offset \(offset) in \(parent)") }
            let header = try source.read(at: offset, length: 8, what: "a box header")
            let type = try header.fourCC(4, what: "a box type")
            var size = Int(try header.u32(0, what: "a box size"))
            var headerLength = 8
            if size == 1 {
                let large = try source.read(at: offset + 8, length: 8, what: "a 64-bit box size").u64(0, what: "a 64-bit box size")
                guard large <= UInt64(end - offset) else {
                    throw MetadataFailure("the \(type) box at offset \(offset) claims \(large) bytes, past the end of \(parent)")
                }
                size = Int(large)
                headerLength = 16
            } else if size == 0 {
                size = end - offset  // To the end of the file (or of the parent).
            }
            guard size >= headerLength, size <= end - offset else {
                throw MetadataFailure("the \(type) box at offset \(offset) has size \(size) in \(parent) of \(end - start) bytes")
            }
            boxes.append(Box(type: type, offset: offset, payloadOffset: offset + headerLength, payloadLength: size - headerLength))
            offset += size
        }
        return boxes
    }

    /// `mvhd`'s creation time, `nil` when it is 0 (not set).
    static func creationDate(_ source: some MediaByteSource, _ mvhd: Box) throws(MetadataFailure) -> Date? {
        let payload = try source.read(at: mvhd.payloadOffset, length: min(mvhd.payloadLength, 32), what: "mvhd")
        let seconds: UInt64
        switch try payload.u8(0, what: "mvhd's version") {
        case 0: seconds = UInt64(try payload.u32(4, what: "mvhd's creation time"))
        case 1: seconds = try payload.u64(4, what: "mvhd's creation time")
        case let version: throw MetadataFailure("mvhd has version \(version)")
        }
        if seconds == 0 { return nil }
        // After 9999-12-31 is not a creation time.
        guard seconds <= 253_402_300_799 + epochOffset else { throw MetadataFailure("mvhd's creation time \(seconds) is past the year 9999") }
        return Date(timeIntervalSince1970: Double(Int64(seconds) - Int64(epochOffset)))
    }

    /// `tkhd`'s width and height, `nil` when either is 0 (an audio track).
    static func trackSize(_ source: some MediaByteSource, _ tkhd: Box) throws(MetadataFailure) -> (Int, Int)? {
        let version = try source.read(at: tkhd.payloadOffset, length: 1, what: "tkhd's version").u8(0, what: "tkhd's version")
        let sizeOffset: Int
        switch version {
        case 0: sizeOffset = 76
        case 1: sizeOffset = 88
        default: throw MetadataFailure("tkhd at offset \(tkhd.offset) has version \(version)")
        }
        guard tkhd.payloadLength >= sizeOffset + 8 else { throw MetadataFailure("tkhd at offset \(tkhd.offset) is \(tkhd.payloadLength) bytes") }
        let fields = try source.read(at: tkhd.payloadOffset + sizeOffset, length: 8, what: "tkhd's size")
        let width = Int(try fields.u32(0, what: "tkhd's width") >> 16), height = Int(try fields.u32(4, what: "tkhd's height") >> 16)
        return width > 0 && height > 0 ? (width, height) : nil
    }

    /// The handler type in a track's `mdia/hdlr` (`vide`, `soun`, …), or `nil` when there is none.
    static func handler(_ source: some MediaByteSource, _ track: [Box]) throws(MetadataFailure) -> String? {
        guard let mdia = track.first(where: { $0.type == "mdia" }) else { return nil }
        let media = try children(source, from: mdia.payloadOffset, to: mdia.payloadOffset + mdia.payloadLength, parent: "mdia")
        guard let hdlr = media.first(where: { $0.type == "hdlr" }) else { return nil }
        guard hdlr.payloadLength >= 12 else { throw MetadataFailure("hdlr at offset \(hdlr.offset) is \(hdlr.payloadLength) bytes") }
        return try source.read(at: hdlr.payloadOffset + 8, length: 4, what: "the handler type").fourCC(0, what: "the handler type")
    }
}
