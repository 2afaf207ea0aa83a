import Foundation

/// A thumbnail: a JPEG and its size.
public struct Thumbnail: Sendable, Equatable {
    /// The JPEG bytes.
    public var jpeg: [UInt8]
    public var width: Int
    public var height: Int
}

/// The image formats `ThumbnailMaker` recognizes by their first bytes.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg = "JPEG"
    case png = "PNG"
    case heic = "HEIC"
    case gif = "GIF"

    /// The format of `bytes`, or nil when it is none of these.
    public static func detect(_ bytes: [UInt8]) -> ImageFormat? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: Array("GIF8".utf8)) { return .gif }
        if bytes.count >= 12, bytes[4..<8].elementsEqual("ftyp".utf8) {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            if ["heic", "heix", "heim", "heis", "mif1", "msf1", "hevc"].contains(brand) { return .heic }
        }
        return nil
    }
}

/// Makes the Vault's gallery thumbnails: a JPEG (quality 80) at most 256 pixels on its long side,
/// area-averaged from a JPEG (decoded by libjpeg-turbo at a reduced DCT scale, so a 12-megapixel
/// photo decodes at 1/8 size) or a PNG (libpng). Other formats (HEIC, GIF) and videos get none:
/// there is no decoder for them on Linux. EXIF orientation is not applied.
public struct ThumbnailMaker: Sendable {
    /// The long side of a thumbnail, at most.
    public var maximumSide: Int
    /// The JPEG quality of a thumbnail.
    public var quality: Int
    /// The largest input read, in bytes.
    public var maximumInputBytes: Int
    /// The largest image decoded, in pixels (after DCT scaling for a JPEG).
    public var maximumPixels: Int

    /// A thumbnail maker (256 pixels, quality 80, inputs up to 64 MiB and 50 megapixels).
    public init(maximumSide: Int = 256, quality: Int = 80, maximumInputBytes: Int = 64 << 20,
                maximumPixels: Int = 50_000_000) {
        self.maximumSide = maximumSide
        self.quality = quality
        self.maximumInputBytes = maximumInputBytes
        self.maximumPixels = maximumPixels
    }

    /// The thumbnail of an image file.
    /// - Throws: `VaultError.imageTooLarge` past `maximumInputBytes`, `.fileSystem` when it cannot
    ///   be read, and the errors of `thumbnail(of:)`.
    public func thumbnail(ofFile file: URL) throws(EraserKitError) -> Thumbnail {
        let input = try PosixFile(reading: file.path)
        defer { input.close() }
        let bytes = try input.read(upTo: maximumInputBytes + 1)
        guard bytes.count <= maximumInputBytes else {
            throw .vault(.imageTooLarge("the file is larger than \(maximumInputBytes) bytes"))
        }
        return try thumbnail(of: bytes)
    }

    /// The thumbnail of an image in memory.
    /// - Throws: `VaultError.unsupportedImage` for a format without a decoder,
    ///   `.undecodableImage` for a damaged image, `.imageTooLarge`, `.thumbnailUnavailable`.
    public func thumbnail(of bytes: [UInt8]) throws(EraserKitError) -> Thumbnail {
        let image: RGBImage
        switch ImageFormat.detect(bytes) {
        case .jpeg:
            image = try JPEGCodec.decode(bytes, minimumLongSide: maximumSide, maximumPixels: maximumPixels)
        case .png:
            image = try PNGDecoder.decode(bytes, maximumPixels: maximumPixels)
        case .heic, .gif:
            throw .vault(.unsupportedImage(ImageFormat.detect(bytes)?.rawValue ?? "unknown"))
        case nil:
            throw .vault(.unsupportedImage("unknown"))
        }
        let small = image.downscaled(toFit: maximumSide)
        return Thumbnail(jpeg: try JPEGCodec.encode(small, quality: quality), width: small.width, height: small.height)
    }
}
