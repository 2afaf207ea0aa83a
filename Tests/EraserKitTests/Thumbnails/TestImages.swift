/// Test images made without the code under test: a PNG writer (stored deflate blocks, CRC-32,
/// Adler-32) and pixel patterns.
enum TestImages {
    /// An 8-bit RGB (or RGBA) PNG of `width` × `height` whose pixel (x, y) is `pixel(x, y)`.
    static func png(width: Int, height: Int, alpha: Bool = false,
                    pixel: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) -> [UInt8] {
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)
            for x in 0..<width {
                let (r, g, b, a) = pixel(x, y)
                raw += alpha ? [r, g, b, a] : [r, g, b]
            }
        }
        var header: [UInt8] = []
        header += bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [8, alpha ? 6 : 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", header) + chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
    }

    /// A colour gradient, different in every corner.
    static func gradient(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        (UInt8(truncatingIfNeeded: x), UInt8(truncatingIfNeeded: y), UInt8(truncatingIfNeeded: x ^ y), 255)
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var index = 0
        repeat {
            let size = min(65_535, data.count - index)
            let final: UInt8 = index + size == data.count ? 1 : 0
            out += [final, UInt8(size & 0xFF), UInt8(size >> 8), UInt8(~size & 0xFF), UInt8((~size >> 8) & 0xFF)]
            out += data[index..<index + size]
            index += size
        } while index < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + bigEndian(b << 16 | a)
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
