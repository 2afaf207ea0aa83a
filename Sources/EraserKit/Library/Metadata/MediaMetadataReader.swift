import Foundation

/// Reads a photo's or video's metadata from its bytes, with small readers of its own (no image
/// library): the media type, the pixel size, the capture date and the GPS position.
///
/// **Formats** (recognised from the first bytes, never from the name):
/// - JPEG: the markers are walked to the first `APP1 "Exif\0\0"` segment, read as TIFF (`II`/`MM`):
///   IFD0 → Exif IFD (`DateTimeOriginal` 0x9003, `SubSecTimeOriginal` 0x9291,
///   `OffsetTimeOriginal` 0x9011, `PixelXDimension`/`PixelYDimension` 0xA002/0xA003) and GPS IFD
///   (latitude/longitude with their N/S, E/W references, altitude with its above/below
///   reference). The pixel size comes from EXIF when it has both dimensions, else from the SOFn
///   frame header.
/// - PNG: `IHDR`'s size, and an `eXIf` chunk (read as above) when there is one.
/// - MP4/M4V/MOV (ISO BMFF): `moov/mvhd`'s creation time and the video track's `tkhd` size.
/// - HEIC/HEIF/AVIF: recognised as a photo by its `ftyp` brand; nothing more is read.
///
/// **Capture date** (`CaptureDate.source` records which rule gave it):
/// 1. `DateTimeOriginal` with `OffsetTimeOriginal`: that exact instant (`.exifWithOffset`).
/// 2. `DateTimeOriginal` alone: the wall-clock time read in `timeZone` (`.exifLocal`).
/// 3. A movie's `mvhd` creation time when it is not 0 (`.container`).
/// 4. Otherwise the file's modification time (`.fileTime`; see `MediaMetadata.captureDate(fileModificationDate:)`).
/// EXIF's "unknown" date forms (blanks, all zeros) count as no date.
///
/// **Malformed input** gives `LibraryError.unreadableMetadata` naming the structure and offset,
/// or `.unsupportedFormat` — never a crash or an endless loop: every offset, length and count is
/// checked against the bytes there are, each EXIF IFD is visited at most once, and every walk
/// moves forward within a bounded number of steps. A structure the reader walks must be
/// well-formed (a bad GPS rational fails the whole file); the fields it does not read are not
/// checked. Files are read with `pread`, a few small reads each, so a large video is never
/// loaded whole.
public struct MediaMetadataReader: Sendable {
    /// The zone in which an EXIF date without an offset is read.
    public let timeZone: TimeZone

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// Reads the metadata of `bytes`.
    /// - Parameter path: names the file in errors.
    /// - Throws: `EraserKitError.library(.unreadableMetadata)` or `.library(.unsupportedFormat)`.
    public func read(_ bytes: [UInt8], path: String = "(bytes)") throws(EraserKitError) -> MediaMetadata {
        try read(MediaMemorySource(bytes: bytes), path: path)
    }

    /// Reads the metadata of the file at `url`.
    /// - Throws: as `read(_:path:)`, and `.library(.fileSystem)` when the file cannot be opened.
    public func read(contentsOf url: URL) throws(EraserKitError) -> MediaMetadata {
        let source: MediaFileSource
        do {
            source = try MediaFileSource(path: url.path)
        } catch {
            throw .library(.fileSystem(path: url.path, reason: error.reason))
        }
        return try read(source, path: url.path)
    }

    /// The format `bytes` start with, or `nil`.
    static func sniff(_ head: [UInt8]) -> MediaFormat? {
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: PNGReader.signature) { return .png }
        if head.count >= 8, ISOMediaReader.leadingTypes.contains(String(decoding: head[4..<8], as: UTF8.self)) { return .isoMovie }
        return nil
    }

    func read(_ source: some MediaByteSource, path: String) throws(EraserKitError) -> MediaMetadata {
        do {
            let head = try source.read(at: 0, length: min(16, source.count), what: "the first bytes").array
            switch Self.sniff(head) {
            case .jpeg:
                let jpeg = try JPEGReader.read(source)
                var metadata = MediaMetadata(format: .jpeg, pixelWidth: jpeg.frameWidth, pixelHeight: jpeg.frameHeight)
                if let exif = jpeg.exif { apply(exif, to: &metadata) }
                return metadata
            case .png:
                let png = try PNGReader.read(source)
                var metadata = MediaMetadata(format: .png, pixelWidth: png.width, pixelHeight: png.height)
                if var exif = png.exif {
                    // IHDR is the PNG's own size; EXIF's may describe an original it was made from.
                    exif.pixelWidth = nil
                    exif.pixelHeight = nil
                    apply(exif, to: &metadata)
                }
                return metadata
            case .heic, .isoMovie:
                let media = try ISOMediaReader.read(source)
                return MediaMetadata(
                    format: media.format, pixelWidth: media.width, pixelHeight: media.height,
                    embeddedCaptureDate: media.creationDate.map { CaptureDate(date: $0, source: .container) })
            case nil:
                throw EraserKitError.library(.unsupportedFormat(path))
            }
        } catch let failure as MetadataFailure {
            throw .library(.unreadableMetadata(path: path, reason: failure.reason))
        } catch let error as EraserKitError {
            throw error
        } catch {
            throw .library(.unreadableMetadata(path: path, reason: "\(error)"))
        }
    }

    /// EXIF's size (both dimensions or neither), position and date over what the container said.
    func apply(_ exif: ExifReader.Fields, to metadata: inout MediaMetadata) {
        if let width = exif.pixelWidth, let height = exif.pixelHeight {
            metadata.pixelWidth = width
            metadata.pixelHeight = height
        }
        metadata.location = exif.location
        if let date = exif.dateTimeOriginal {
            metadata.embeddedCaptureDate = date.captureDate(in: timeZone)
            if date.offsetSeconds == nil { metadata.wallClockSeconds = date.wallClockSeconds }
        }
    }
}
