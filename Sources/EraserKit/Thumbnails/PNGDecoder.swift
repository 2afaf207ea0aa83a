import CLibPNG

/// PNG decoding with libpng's simplified API (`png_image_*`), which reports errors in the
/// structure instead of jumping out of the caller.
enum PNGDecoder {
    /// Decodes `bytes` to RGB; transparent pixels are composited on white.
    /// - Parameter maximumPixels: the largest width × height accepted.
    /// - Throws: `VaultError.undecodableImage` with libpng's message, `.imageTooLarge`.
    static func decode(_ bytes: [UInt8], maximumPixels: Int) throws(EraserKitError) -> RGBImage {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        // withUnsafeBytes rethrows untyped errors: the closure returns a Result instead.
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(EraserKitError) -> RGBImage in try decode(buffer, into: &image, maximumPixels: maximumPixels) }
        }
        return try result.get()
    }

    /// Reads the PNG in `buffer` (which must outlive the read) through `image`.
    private static func decode(_ buffer: UnsafeRawBufferPointer, into image: inout png_image,
                               maximumPixels: Int) throws(EraserKitError) -> RGBImage {
        guard png_image_begin_read_from_memory(&image, buffer.baseAddress, buffer.count) != 0 else {
            throw .vault(.undecodableImage("PNG: \(message(of: image))"))
        }
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0, width * height <= maximumPixels else {
            throw .vault(.imageTooLarge("\(width) × \(height) pixels"))
        }
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR)
        var pixels = [UInt8](repeating: 255, count: width * height * 3)
        let finished = pixels.withUnsafeMutableBytes { target in
            png_image_finish_read(&image, nil, target.baseAddress, 0, nil)
        }
        guard finished != 0 else { throw .vault(.undecodableImage("PNG: \(message(of: image))")) }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// libpng's message in `image.message` (a fixed C array).
    private static func message(of image: png_image) -> String {
        var copy = image.message
        return withUnsafeBytes(of: &copy) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return bytes.isEmpty ? "unknown error" : String(decoding: bytes, as: UTF8.self)
        }
    }
}
