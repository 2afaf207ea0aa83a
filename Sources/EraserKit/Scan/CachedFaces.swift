import Foundation

/// One asset's entry in the descriptor cache: what a rethreshold needs without the embedder.
struct CachedFaces: Sendable, Equatable {
    /// The asset's capture date and media type (for its result).
    var date: Date
    var mediaType: MediaType
    /// Every face's descriptor, all of one length.
    var descriptors: [[Float]]

    /// The binary form that is sealed: version 1, media type (0 photo, 1 video), the date's
    /// `timeIntervalSinceReferenceDate` as a little-endian IEEE double, the face count and the
    /// descriptor length as little-endian UInt16, then every float little-endian.
    func encoded() throws(EraserKitError) -> [UInt8] {
        let length = descriptors.first?.count ?? 0
        guard descriptors.count <= Int(UInt16.max), length <= Int(UInt16.max),
              descriptors.allSatisfy({ $0.count == length }) else {
            throw .scan(.store("an asset's face descriptors differ in length"))
        }
        var bytes: [UInt8] = [1, mediaType == .photo ? 0 : 1]
        bytes.reserveCapacity(14 + descriptors.count * length * 4)
        Self.append(date.timeIntervalSinceReferenceDate.bitPattern, to: &bytes)
        Self.append(UInt16(descriptors.count), to: &bytes)
        Self.append(UInt16(length), to: &bytes)
        for descriptor in descriptors {
            for value in descriptor { Self.append(value.bitPattern, to: &bytes) }
        }
        return bytes
    }

    /// Decodes `encoded()`'s bytes.
    init(decoding bytes: [UInt8]) throws(EraserKitError) {
        guard bytes.count >= 14, bytes[0] == 1, bytes[1] <= 1 else {
            throw .scan(.store("a cached descriptor row has an unknown format"))
        }
        mediaType = bytes[1] == 0 ? .photo : .video
        date = Date(timeIntervalSinceReferenceDate: Double(bitPattern: Self.read(UInt64.self, bytes, at: 2)))
        let count = Int(Self.read(UInt16.self, bytes, at: 10))
        let length = Int(Self.read(UInt16.self, bytes, at: 12))
        guard bytes.count == 14 + count * length * 4 else {
            throw .scan(.store("a cached descriptor row has the wrong size"))
        }
        var descriptors: [[Float]] = []
        descriptors.reserveCapacity(count)
        var position = 14
        for _ in 0..<count {
            var descriptor: [Float] = []
            descriptor.reserveCapacity(length)
            for _ in 0..<length {
                descriptor.append(Float(bitPattern: Self.read(UInt32.self, bytes, at: position)))
                position += 4
            }
            descriptors.append(descriptor)
        }
        self.descriptors = descriptors
    }

    /// A cache entry.
    init(date: Date, mediaType: MediaType, descriptors: [[Float]]) {
        self.date = date
        self.mediaType = mediaType
        self.descriptors = descriptors
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func read<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], at offset: Int) -> T {
        var value: T = 0
        for index in 0..<MemoryLayout<T>.size {
            value |= T(bytes[offset + index]) << (8 * index)
        }
        return value
    }
}
