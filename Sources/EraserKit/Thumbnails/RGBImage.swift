/// An 8-bit RGB image in memory: rows top to bottom, 3 bytes a pixel.
struct RGBImage: Sendable, Equatable {
    var width: Int
    var height: Int
    var pixels: [UInt8]

    /// The size that fits `maximumSide` on the long side, keeping the aspect ratio (the image's
    /// own size when it already fits; never below 1 × 1).
    static func fittedSize(width: Int, height: Int, maximumSide: Int) -> (width: Int, height: Int) {
        let long = max(width, height)
        guard long > maximumSide else { return (width, height) }
        let scale = Double(maximumSide) / Double(long)
        let fitted = { (side: Int) in side == long ? maximumSide : max(1, Int((Double(side) * scale).rounded())) }
        return (fitted(width), fitted(height))
    }

    /// The image reduced to fit `maximumSide` by area averaging: each output pixel is the mean
    /// of the source pixels its area covers (whole pixels; the split points are rounded down).
    func downscaled(toFit maximumSide: Int) -> RGBImage {
        let size = Self.fittedSize(width: width, height: height, maximumSide: maximumSide)
        guard size.width != width || size.height != height else { return self }
        let xStarts = Self.splits(source: width, target: size.width)
        let yStarts = Self.splits(source: height, target: size.height)
        var output = [UInt8](repeating: 0, count: size.width * size.height * 3)
        var sums = [Int](repeating: 0, count: size.width * 3)
        for outY in 0..<size.height {
            for index in sums.indices { sums[index] = 0 }
            let y0 = yStarts[outY], y1 = yStarts[outY + 1]
            for y in y0..<y1 {
                let row = y * width * 3
                for outX in 0..<size.width {
                    var r = 0, g = 0, b = 0
                    for x in xStarts[outX]..<xStarts[outX + 1] {
                        let offset = row + x * 3
                        r += Int(pixels[offset])
                        g += Int(pixels[offset + 1])
                        b += Int(pixels[offset + 2])
                    }
                    sums[outX * 3] += r
                    sums[outX * 3 + 1] += g
                    sums[outX * 3 + 2] += b
                }
            }
            for outX in 0..<size.width {
                let count = (xStarts[outX + 1] - xStarts[outX]) * (y1 - y0)
                let target = (outY * size.width + outX) * 3
                for channel in 0..<3 {
                    output[target + channel] = UInt8((sums[outX * 3 + channel] + count / 2) / count)
                }
            }
        }
        return RGBImage(width: size.width, height: size.height, pixels: output)
    }

    /// `target + 1` increasing split points over `0...source`: output cell `i` covers
    /// `[splits[i], splits[i + 1])`, never empty (source ≥ target).
    private static func splits(source: Int, target: Int) -> [Int] {
        (0...target).map { $0 * source / target }
    }
}
