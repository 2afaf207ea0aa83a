/// `sealed:v1:` — a sealed answer's payload: `"sealed:v1:" + base64url-no-padding(IV (12) ‖
/// AES-256-GCM ciphertext ‖ tag (16))` under a one-time 32-byte key, associated data
/// `coupleId|questionId|userId`. The plaintext is the RFC 8785 canonical JSON of
/// `{"answer", "coupleId", "nonce", "questionId", "userId", "v": 1}`.
/// Spec: `docs/wire-formats.md`, "sealed:v1".
public enum SealedPayload {
    /// The wire format's name in errors.
    static let format = CloserWireFormat.Format.sealedPayload.rawValue
    /// The payload JSON's version (`v`).
    public static let version: Int64 = 1
    /// Random bytes in the nonce (encoded as 43 base64url characters).
    public static let nonceLength = 32

    /// The decoded fields of a payload.
    public struct Contents: Equatable, Sendable {
        /// The answer text.
        public let answer: String
        /// The couple, question and author the payload names.
        public let coupleId: String, questionId: String, userId: String
        /// The 32-byte nonce as 43 base64url characters.
        public let nonce: String
    }

    /// Builds the canonical JSON that is sealed and committed to.
    /// - Parameters:
    ///   - answer: the answer text.
    ///   - context: the couple, question and author.
    ///   - nonce: 32 bytes; `nil` draws fresh random bytes (the normal case).
    /// - Returns: the canonical UTF-8 JSON bytes.
    /// - Throws: `KindredCryptoError.invalidParameters` for a nonce that is not 32 bytes.
    public static func canonicalJSON(answer: String, context: SealedAnswerContext, nonce: [UInt8]? = nil) throws(KindredCryptoError) -> [UInt8] {
        try canonicalJSON(answer: answer, context: context, nonce: (nonce ?? SecureRandom.bytes(nonceLength))[...])
    }

    /// `canonicalJSON(answer:context:nonce:)` for a nonce given as a slice.
    static func canonicalJSON(answer: String, context: SealedAnswerContext, nonce: ArraySlice<UInt8>) throws(KindredCryptoError) -> [UInt8] {
        guard nonce.count == nonceLength else { throw .invalidParameters("the nonce must be \(nonceLength) bytes") }
        return nonce.withUnsafeBufferPointer { writeCanonicalJSON(answer: answer, context: context, nonce: $0) }
    }

    /// Parses a decrypted payload's JSON.
    /// - Parameter json: the plaintext of a `sealed:v1:` payload.
    /// - Returns: its fields.
    /// - Throws: `KindredCryptoError.malformed` unless it is canonical JSON with exactly the six
    ///   members, `v` = 1, string fields and a 32-byte nonce.
    public static func parse(_ json: [UInt8]) throws(KindredCryptoError) -> Contents {
        if let contents = json.withUnsafeBufferPointer(parseFast) { return contents }
        return try parseGeneral(json)
    }

    /// `parse(_:)` through the general `CanonicalJSON` parser: the reference the fast path is
    /// tested against, and the source of every error.
    static func parseGeneral(_ json: [UInt8]) throws(KindredCryptoError) -> Contents {
        guard case .object(let members) = try CanonicalJSON.parseCanonical(json, format: format) else {
            throw .malformed(format: format, reason: "payload is not a JSON object")
        }
        guard members.count == 6, members["v"] == .integer(version) else {
            throw .malformed(format: format, reason: "payload must have exactly v=1, answer, coupleId, questionId, userId and nonce")
        }
        func text(_ name: String) throws(KindredCryptoError) -> String {
            guard case .string(let s) = members[name] else { throw .malformed(format: format, reason: "payload member \(name) is missing or not a string") }
            return s
        }
        let nonce = try text("nonce")
        guard (try? Base64.decode(nonce, alphabet: .urlSafeNoPadding))?.count == nonceLength else {
            throw .malformed(format: format, reason: "payload nonce is not 32 bytes of base64url")
        }
        return Contents(answer: try text("answer"), coupleId: try text("coupleId"), questionId: try text("questionId"),
                        userId: try text("userId"), nonce: nonce)
    }

    /// Encrypts canonical JSON under a one-time key.
    /// - Parameters:
    ///   - json: the canonical JSON (see `canonicalJSON`).
    ///   - oneTimeKey: 32 random bytes, used for this payload only.
    ///   - context: supplies the associated data `coupleId|questionId|userId`.
    /// - Returns: the `sealed:v1:` string.
    /// - Throws: `.invalidKeySize` for a key that is not 32 bytes, `.tooLong` beyond 65,536 characters.
    public static func seal(_ json: [UInt8], oneTimeKey: [UInt8], context: SealedAnswerContext) throws(KindredCryptoError) -> String {
        try seal(json, oneTimeKey: oneTimeKey, context: context, iv: nil)
    }

    /// `seal(_:oneTimeKey:context:)` with a fixed IV for known-answer tests (`nil` draws a random one).
    static func seal(_ json: [UInt8], oneTimeKey: [UInt8], context: SealedAnswerContext, iv: [UInt8]?) throws(KindredCryptoError) -> String {
        try seal(json, oneTimeKey: oneTimeKey, associatedData: context.associatedData, iv: (iv ?? SecureRandom.bytes(CloserAESGCM.ivLength))[...])
    }

    /// `seal(_:oneTimeKey:context:)` with the associated data already built and a given IV.
    static func seal(_ json: [UInt8], oneTimeKey: [UInt8], associatedData: [UInt8], iv: ArraySlice<UInt8>) throws(KindredCryptoError) -> String {
        let wireFormat = CloserWireFormat.Format.sealedPayload
        return try CloserAESGCM.seal(json, key: oneTimeKey, associatedData: associatedData, iv: iv) { (blob) throws(KindredCryptoError) in
            let limit = wireFormat.maximumLength
            guard wireFormat.prefix.utf8.count + Base64.encodedLength(blob.count, alphabet: .urlSafeNoPadding) <= limit else {
                throw .tooLong(format: format, limit: limit)
            }
            return Base64.encode(blob, alphabet: .urlSafeNoPadding, prefix: wireFormat.prefix)
        }
    }

    /// Decrypts a `sealed:v1:` string with its one-time key.
    /// - Parameters:
    ///   - payload: the `sealed:v1:` string.
    ///   - oneTimeKey: the 32-byte one-time key.
    ///   - context: supplies the associated data.
    /// - Returns: the plaintext (canonical JSON bytes; not yet checked).
    /// - Throws: `.wrongPrefix`, `.tooLong`, `.truncated`, `.malformed` for a bad string,
    ///   `.invalidKeySize`, and `.authenticationFailed` for a wrong key, context or modified payload.
    public static func open(_ payload: String, oneTimeKey: [UInt8], context: SealedAnswerContext) throws(KindredCryptoError) -> [UInt8] {
        try open(payload, oneTimeKey: oneTimeKey, associatedData: context.associatedData) { plaintext in Array(plaintext) }
    }

    /// `open(_:oneTimeKey:context:)` with the associated data already built, lending the
    /// plaintext to `body` without copying it.
    static func open<R>(_ payload: String, oneTimeKey: [UInt8], associatedData: [UInt8],
                        _ body: (UnsafeRawBufferPointer) throws(KindredCryptoError) -> R) throws(KindredCryptoError) -> R {
        let blob = try CloserWireFormat.decodeBody(payload, as: .sealedPayload)
        return try CloserAESGCM.open(blob, key: oneTimeKey, associatedData: associatedData, format: format, body)
    }
}
