/// Turning a validated Closer wire string into its bytes, with typed errors.
/// Spec: `docs/wire-formats/closer.md`, "Validators" and "Errors".
extension CloserWireFormat {
    /// Checks a wire string against its format's rule and decodes its Base64 body strictly.
    /// - Parameters:
    ///   - s: the wire string.
    ///   - format: the expected format (not `.inviteCode`).
    /// - Returns: the decoded body bytes.
    /// - Throws: `.wrongPrefix` for a missing prefix, `.tooLong` beyond the maximum length,
    ///   `.truncated` for a body shorter than the rule's minimum, `.malformed` for any character
    ///   or Base64 violation.
    public static func decodeBody(_ s: String, as format: Format) throws(KindredCryptoError) -> [UInt8] {
        let name = format.rawValue
        guard s.utf8.starts(with: format.prefix.utf8) else {
            throw .wrongPrefix(format: name, expected: format.prefix)
        }
        let length = s.utf8.count
        guard length <= format.maximumLength else { throw .tooLong(format: name, limit: format.maximumLength) }
        let body = Array(s.utf8)[format.prefix.utf8.count...]
        let alphabet: Base64.Alphabet = format == .ciphertext ? .standard : .urlSafeNoPadding
        if let reason = problem(s, as: format) {
            // Length problems of an otherwise clean body are truncation; the rest is malformed.
            let cleanBody = body.allSatisfy { c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)
                    || (alphabet == .standard ? (c == 0x2b || c == 0x2f || c == 0x3d) : (c == 0x2d || c == 0x5f))
            }
            if cleanBody && body.count < format.minimumBodyLength { throw .truncated(format: name) }
            throw .malformed(format: name, reason: reason)
        }
        return try body.withUnsafeBufferPointer { Base64.decode($0, alphabet: alphabet, format: name) }.get()
    }
}
