/// Borrowing the bytes of arrays and strings in closures with typed throws: the standard
/// library's `withUnsafeBytes` / `withUTF8` rethrow an untyped error, so the closure's
/// `KindredCryptoError` is carried out through a `Result`.
extension Array where Element == UInt8 {
    /// `withUnsafeBytes` for a body that throws `KindredCryptoError`.
    /// - Parameter body: receives the array's bytes (valid only during the call).
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws(KindredCryptoError) -> R) throws(KindredCryptoError) -> R {
        try withUnsafeBytes { raw in Result { () throws(KindredCryptoError) in try body(raw) } }.get()
    }
}

extension ArraySlice where Element == UInt8 {
    /// `withUnsafeBytes` for a body that throws `KindredCryptoError`.
    /// - Parameter body: receives the slice's bytes (valid only during the call).
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws(KindredCryptoError) -> R) throws(KindredCryptoError) -> R {
        try withUnsafeBytes { raw in Result { () throws(KindredCryptoError) in try body(raw) } }.get()
    }
}

extension String {
    /// The string's UTF-8 bytes lent to a body that throws `KindredCryptoError` (native strings
    /// are not copied).
    /// - Parameter body: receives the UTF-8 bytes (valid only during the call).
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    func withUTF8Bytes<R>(_ body: (UnsafeRawBufferPointer) throws(KindredCryptoError) -> R) throws(KindredCryptoError) -> R {
        var text = self
        return try text.withUTF8 { utf8 in Result { () throws(KindredCryptoError) in try body(UnsafeRawBufferPointer(utf8)) } }.get()
    }
}
