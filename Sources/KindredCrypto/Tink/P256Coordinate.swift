/// How Tink stores P-256 field elements and scalars in key protos (`x`, `y`, `key_value`).
///
/// Java Tink writes them big-endian with one extra leading zero byte, 33 bytes in all
/// (`BigIntegerEncoding.toBigEndianBytesOfFixedLength(v, 33)`, so that a two's-complement reader
/// sees a positive number); Python and C++ Tink write 32 bytes. Readers take the bytes as an
/// unsigned big-endian integer, so any number of leading zero bytes is accepted.
/// Spec: `docs/wire-formats.md`, "Coordinate encoding".
enum P256Coordinate {
    /// The length Kindred writes, as Java Tink does.
    static let encodedLength = 33
    /// The length of a P-256 field element or scalar.
    static let size = 32

    /// Encodes a 32-byte big-endian value as Java Tink does: `0x00 ‖ value`.
    /// - Parameter value: exactly 32 bytes.
    /// - Returns: 33 bytes.
    static func encode(_ value: some Collection<UInt8>) -> [UInt8] {
        precondition(value.count == size, "P-256 values are 32 bytes")
        return [0] + Array(value)
    }

    /// Decodes an unsigned big-endian value of any length into exactly 32 bytes.
    /// - Parameter bytes: the proto field.
    /// - Returns: 32 bytes, or `nil` when the value needs more than 32 bytes.
    static func decode(_ bytes: some Collection<UInt8>) -> [UInt8]? {
        let significant = bytes.drop { $0 == 0 }
        guard significant.count <= size else { return nil }
        return [UInt8](repeating: 0, count: size - significant.count) + significant
    }
}
