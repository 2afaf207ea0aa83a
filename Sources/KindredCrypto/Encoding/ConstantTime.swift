/// Comparisons whose running time does not depend on where two secrets differ.
public enum ConstantTime {
    /// Compares two byte strings in time that depends only on their lengths.
    /// - Parameters:
    ///   - a: the first bytes (for example a computed tag or hash).
    ///   - b: the second bytes (for example the one read from the wire).
    /// - Returns: `true` when both have the same length and the same bytes.
    @inline(never)
    public static func equals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for (x, y) in zip(a, b) { diff |= x ^ y }
        return diff == 0
    }
}
