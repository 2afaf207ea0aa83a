import Foundation
import Testing

@testable import EraserKit

@Suite struct ThumbnailMakerTests {
    @Test func jpegCodecIsLinked() {
        // Needs the CEraserImage C target (libjpeg behind setjmp); see the Vault helper's report.
        #expect(JPEGCodec.isAvailable)
    }

    @Test func formatsAreRecognizedByTheirFirstBytes() {
        #expect(ImageFormat.detect([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(ImageFormat.detect(TestImages.png(width: 1, height: 1, pixel: TestImages.gradient)) == .png)
        #expect(ImageFormat.detect([0, 0, 0, 24] + Array("ftypheic".utf8)) == .heic)
        #expect(ImageFormat.detect(Array("GIF89a".utf8)) == .gif)
        #expect(ImageFormat.detect([1, 2, 3]) == nil)
    }

    @Test func areaAveragingKeepsTheAspectAndAveragesBlocks() {
        // A 4 × 2 image of two 2 × 2 blocks, halved: each block becomes its mean.
        let image = RGBImage(width: 4, height: 2, pixels: [
            0, 0, 0, 10, 20, 30, 100, 100, 100, 200, 200, 200,
            30, 20, 10, 0, 0, 0, 100, 100, 100, 200, 200, 201,
        ])
        let small = image.downscaled(toFit: 2)
        #expect(small == RGBImage(width: 2, height: 1, pixels: [10, 10, 10, 150, 150, 150]))
        #expect(RGBImage.fittedSize(width: 4000, height: 3000, maximumSide: 256) == (256, 192))
        #expect(RGBImage.fittedSize(width: 1000, height: 10, maximumSide: 256) == (256, 3))
        #expect(RGBImage.fittedSize(width: 5000, height: 1, maximumSide: 256) == (256, 1))
        #expect(RGBImage.fittedSize(width: 100, height: 50, maximumSide: 256) == (100, 50))
    }

    @Test(.enabled(if: JPEGCodec.isAvailable)) func aPNGBecomesA256PixelJPEG() throws {
        let png = TestImages.png(width: 600, height: 400, pixel: TestImages.gradient)
        let thumbnail = try ThumbnailMaker().thumbnail(of: png)
        #expect(thumbnail.width == 256)
        #expect(thumbnail.height == 171)
        #expect(ImageFormat.detect(thumbnail.jpeg) == .jpeg)
        #expect(try JPEGCodec.size(of: thumbnail.jpeg) == (256, 171))
        let decoded = try JPEGCodec.decode(thumbnail.jpeg, minimumLongSide: 256, maximumPixels: 1 << 20)
        #expect(decoded.width == 256 && decoded.height == 171)
    }

    @Test(.enabled(if: JPEGCodec.isAvailable)) func aLargeJPEGIsDecodedAtReducedScale() throws {
        let source = RGBImage(width: 2400, height: 1600, pixels: (0..<(2400 * 1600)).flatMap { index -> [UInt8] in
            let x = index % 2400, y = index / 2400
            return [UInt8(x / 10 % 256), UInt8(y / 10 % 256), 128]
        })
        let jpeg = try JPEGCodec.encode(source, quality: 90)
        // 1/8 of 2400 is 300, still at least 256: the decoder works on 300 × 200 pixels.
        let reduced = try JPEGCodec.decode(jpeg, minimumLongSide: 256, maximumPixels: 1 << 30)
        #expect(reduced.width == 300 && reduced.height == 200)
        let thumbnail = try ThumbnailMaker().thumbnail(of: jpeg)
        #expect((thumbnail.width, thumbnail.height) == (256, 171))
        // The top-left corner stays dark red-green, the bottom-right bright: the picture survives.
        let decoded = try JPEGCodec.decode(thumbnail.jpeg, minimumLongSide: 256, maximumPixels: 1 << 20)
        #expect(decoded.pixels[0] < 40 && decoded.pixels[1] < 40)
        let last = decoded.pixels.count - 3
        #expect(decoded.pixels[last] > 200 && decoded.pixels[last + 1] > 120)
    }

    @Test func transparentPNGPixelsBecomeWhite() throws {
        let png = TestImages.png(width: 2, height: 1, alpha: true) { x, _ in x == 0 ? (0, 0, 0, 0) : (0, 0, 255, 255) }
        let image = try PNGDecoder.decode(png, maximumPixels: 100)
        #expect(image.pixels == [255, 255, 255, 0, 0, 255])
    }

    @Test func undecodableImagesAreTypedErrors() throws {
        let maker = ThumbnailMaker()
        var png = TestImages.png(width: 50, height: 50, pixel: TestImages.gradient)
        png.removeLast(200)
        #expect {
            try maker.thumbnail(of: png)
        } throws: { error in
            guard case .vault(.undecodableImage(let reason)) = error as? EraserKitError else { return false }
            return reason.hasPrefix("PNG: ")
        }
        #expect(throws: EraserKitError.vault(.unsupportedImage("HEIC"))) {
            try maker.thumbnail(of: [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0])
        }
        #expect(throws: EraserKitError.vault(.unsupportedImage("unknown"))) { try maker.thumbnail(of: [1, 2, 3]) }
        #expect(throws: EraserKitError.vault(.imageTooLarge("60 × 60 pixels"))) {
            try ThumbnailMaker(maximumPixels: 3599).thumbnail(of: TestImages.png(width: 60, height: 60, pixel: TestImages.gradient))
        }
    }

    @Test(.enabled(if: JPEGCodec.isAvailable)) func aDamagedJPEGIsATypedErrorNotAnExit() throws {
        // A JPEG start-of-image marker followed by garbage: libjpeg's fatal error path.
        let garbage: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x03, 0x01] + [UInt8](repeating: 0x55, count: 64)
        #expect {
            try ThumbnailMaker().thumbnail(of: garbage)
        } throws: { error in
            guard case .vault(.undecodableImage(let reason)) = error as? EraserKitError else { return false }
            return reason.hasPrefix("JPEG: ")
        }
    }

    @Test func anUndecodablePhotoIsVaultedWithoutAThumbnail() throws {
        let fixture = try VaultFixture()
        var png = TestImages.png(width: 50, height: 50, pixel: TestImages.gradient)
        png.removeLast(200)
        let item = try fixture.vault.add(file: try fixture.original("broken.png", png), item: VaultFixture.photo("b"))
        #expect(item.hasThumbnail == false)
        #expect(try fixture.names("thumbnails").isEmpty)
        #expect(try fixture.vault.contents(item.id) == png)
    }

    @Test func aVaultedPNGHasADecryptedJPEGThumbnail() throws {
        let fixture = try VaultFixture()
        let png = TestImages.png(width: 300, height: 600, pixel: TestImages.gradient)
        let item = try fixture.vault.add(file: try fixture.original("tall.png", png), item: VaultFixture.photo("t"))
        guard JPEGCodec.isAvailable else {
            #expect(item.hasThumbnail == false)
            return
        }
        #expect(item.hasThumbnail)
        let jpeg = try fixture.vault.thumbnail(item.id)
        #expect(try JPEGCodec.size(of: jpeg) == (128, 256))
    }

    /// A 16 × 8 solid red CMYK JPEG with Adobe's marker (inverted samples), as Pillow 13 writes
    /// `Image.new("CMYK", (16, 8), (0, 255, 255, 0))` at quality 95 (Pillow reads it as (255, 0, 0)).
    static let adobeCMYKRed = """
        /9j/7gAOQWRvYmUAZAAAAAAA/9sAQwACAQEBAQECAQEBAgICAgIEAwICAgIFBAQDBAYFBgYGBQYGBgcJCAYHCQcGBggLCAkKCgoKCgYICwwLCgwJCgoK\
        /8AAFAgACAAQBEMRAE0RAFkRAEsRAP/EAB8AAAEFAQEBAQEBAAAAAAAAAAABAgMEBQYHCAkKC//EALUQAAIBAwMCBAMFBQQEAAABfQECAwAEEQUSITFB\
        BhNRYQcicRQygZGhCCNCscEVUtHwJDNicoIJChYXGBkaJSYnKCkqNDU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqS\
        k5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+v/aAA4EQwBNAFkASwAAPwD9/K/n/r+f\
        +v38oooor//Z
        """

    @Test(.enabled(if: JPEGCodec.isAvailable)) func anAdobeCMYKJPEGDecodesToRGB() throws {
        let jpeg = try #require(Data(base64Encoded: Self.adobeCMYKRed)).map { $0 }
        let image = try JPEGCodec.decode(jpeg, minimumLongSide: 256, maximumPixels: 1 << 20)
        #expect(image.width == 16 && image.height == 8)
        let pixel = Array(image.pixels[(3 * 16 + 3) * 3..<(3 * 16 + 3) * 3 + 3])
        #expect(pixel[0] > 245 && pixel[1] < 10 && pixel[2] < 10, "got \(pixel)")
    }
}
