#if canImport(CEraserImage)
import CEraserImage

/// JPEG decoding (with DCT scaling) and encoding through libjpeg-turbo, via CEraserImage's
/// wrappers, which turn libjpeg's fatal errors into return codes.
enum JPEGCodec {
    /// Whether this build can decode and encode JPEG.
    static let isAvailable = true

    /// The full size in the JPEG's header.
    /// - Throws: `VaultError.undecodableImage` with libjpeg's message.
    static func size(of bytes: [UInt8]) throws(EraserKitError) -> (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        var message = [CChar](repeating: 0, count: Int(ERASER_IMAGE_MESSAGE_SIZE))
        let status = bytes.withUnsafeBufferPointer { buffer in
            eraser_jpeg_read_size(buffer.baseAddress, buffer.count, &width, &height, &message, message.count)
        }
        guard status == 0 else { throw .vault(.undecodableImage("JPEG: \(text(message))")) }
        return (Int(width), Int(height))
    }

    /// Decodes `bytes` to RGB at the smallest DCT scale (1/8, 1/4, 1/2, 1) whose long side is
    /// still at least `minimumLongSide`.
    /// - Throws: `VaultError.undecodableImage` with libjpeg's message (`.imageTooLarge` past
    ///   `maximumPixels` decoded pixels).
    static func decode(_ bytes: [UInt8], minimumLongSide: Int, maximumPixels: Int) throws(EraserKitError) -> RGBImage {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0
        var message = [CChar](repeating: 0, count: Int(ERASER_IMAGE_MESSAGE_SIZE))
        let status = bytes.withUnsafeBufferPointer { buffer in
            eraser_jpeg_decode_rgb(buffer.baseAddress, buffer.count, Int32(clamping: minimumLongSide), maximumPixels,
                                   &pixels, &width, &height, &message, message.count)
        }
        defer { eraser_image_free(pixels) }
        guard status == 0, let pixels else {
            let reason = text(message)
            if reason.hasPrefix("the image is too large") { throw .vault(.imageTooLarge(reason)) }
            throw .vault(.undecodableImage("JPEG: \(reason)"))
        }
        let count = Int(width) * Int(height) * 3
        return RGBImage(width: Int(width), height: Int(height), pixels: Array(UnsafeBufferPointer(start: pixels, count: count)))
    }

    /// Encodes `image` as a baseline JPEG of `quality` (1–100).
    /// - Throws: `VaultError.invalidInput` when libjpeg refuses the image.
    static func encode(_ image: RGBImage, quality: Int) throws(EraserKitError) -> [UInt8] {
        guard image.pixels.count == image.width * image.height * 3 else {
            throw .vault(.invalidInput("the pixel buffer does not match \(image.width) × \(image.height)"))
        }
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: Int(ERASER_IMAGE_MESSAGE_SIZE))
        let status = image.pixels.withUnsafeBufferPointer { buffer in
            eraser_jpeg_encode_rgb(buffer.baseAddress, Int32(clamping: image.width), Int32(clamping: image.height),
                                   Int32(clamping: quality), &output, &size, &message, message.count)
        }
        defer { eraser_image_free(output) }
        guard status == 0, let output else { throw .vault(.invalidInput("cannot encode a JPEG: \(text(message))")) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    private static func text(_ message: [CChar]) -> String {
        let bytes = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return bytes.isEmpty ? "unknown error" : String(decoding: bytes, as: UTF8.self)
    }
}
#else
/// Without the CEraserImage C target this build has no JPEG codec: every call reports
/// `VaultError.thumbnailUnavailable` (libjpeg's fatal errors cannot be caught from Swift alone).
enum JPEGCodec {
    /// Whether this build can decode and encode JPEG.
    static let isAvailable = false

    static func size(of bytes: [UInt8]) throws(EraserKitError) -> (width: Int, height: Int) {
        throw .vault(.thumbnailUnavailable)
    }

    static func decode(_ bytes: [UInt8], minimumLongSide: Int, maximumPixels: Int) throws(EraserKitError) -> RGBImage {
        throw .vault(.thumbnailUnavailable)
    }

    static func encode(_ image: RGBImage, quality: Int) throws(EraserKitError) -> [UInt8] {
        throw .vault(.thumbnailUnavailable)
    }
}
#endif
