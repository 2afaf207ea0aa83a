/// Turning a validated Closer wire string into its bytes, with typed errors.
/// Spec: `docs/wire-formats.md`, "Validators" and "Errors".
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
        var s = s
        return try s.withUTF8 { decodeBody(utf8: $0, as: format) }.get()
    }

    /// `decodeBody(_:as:)` over the string's UTF-8 bytes.
    static func decodeBody(utf8 bytes: UnsafeBufferPointer<UInt8>, as format: Format) -> Result<[UInt8], KindredCryptoError> {
        let name = format.rawValue
        let prefixLength = format.prefix.utf8.count
        guard bytes.starts(with: format.prefix.utf8) else {
            return .failure(.wrongPrefix(format: name, expected: format.prefix))
        }
        guard bytes.count <= format.maximumLength else { return .failure(.tooLong(format: name, limit: format.maximumLength)) }
        let body = UnsafeBufferPointer(rebasing: bytes[prefixLength...])
        let alphabet: Base64.Alphabet = format == .ciphertext ? .standard : .urlSafeNoPadding
        // Fast path, one pass: a body of an allowed length that decodes strictly satisfies the
        // rule (strict decoding accepts only the alphabet, and `=` only as final padding), so
        // `problem(utf8:as:)` would find nothing. Anything else takes the full path below,
        // which reports the rule's exact problem.
        let lengthAllowed = format.hasFixedBodyLength ? body.count == format.minimumBodyLength : body.count >= format.minimumBodyLength
        if lengthAllowed, format != .inviteCode, case .success(let decoded) = Base64.decode(body, alphabet: alphabet, format: name) {
            return .success(decoded)
        }
        if let reason = problem(utf8: bytes, as: format) {
            // Length problems of an otherwise clean body are truncation; the rest is malformed.
            let cleanBody = body.allSatisfy { c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)
                    || (alphabet == .standard ? (c == 0x2b || c == 0x2f || c == 0x3d) : (c == 0x2d || c == 0x5f))
            }
            if cleanBody && body.count < format.minimumBodyLength { return .failure(.truncated(format: name)) }
            return .failure(.malformed(format: name, reason: reason))
        }
        return Base64.decode(body, alphabet: alphabet, format: name)
    }
}
