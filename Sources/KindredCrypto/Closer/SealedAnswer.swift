/// The whole sealed-answer (partner-proof) flow: seal an answer with a one-time key, commit to
/// it, seal the commitment under the couple key, release the key through a keybox, and open
/// the partner's answer at reveal with every check.
///
/// `commitmentSeal` (Kindred's addition to the seed): the `sha256:` commitment encrypted as
/// `enc:v1:` under the couple key with associated data `coupleId|questionId|userId`. A server
/// that replaces payload, commitment and keybox together (it can: the partner's public key is
/// public) cannot forge it, so the swap is caught at reveal.
/// Spec: `docs/wire-formats.md`, "Sealed-answer flow".
public enum SealedAnswer {
    /// What sealing produces: three strings for `answers/{userId}` and the key to keep locally.
    public struct Sealed: Sendable {
        /// `sealed:v1:` → `encryptedPayload`.
        public let payload: String
        /// `sha256:` → `commitmentHash`.
        public let commitment: String
        /// `enc:v1:` → `commitmentSeal`.
        public let commitmentSeal: String
        /// The one-time key: kept in the pending-key store until both partners have answered.
        public let oneTimeKey: [UInt8]
    }

    /// Seals an answer.
    /// - Parameters:
    ///   - answer: the answer text.
    ///   - context: couple, question and author.
    ///   - coupleKeyset: the couple's AES-256-GCM keyset (seals the commitment).
    /// - Returns: payload, commitment, commitment seal and the one-time key.
    /// - Throws: `.tooLong` for an oversized answer, keyset errors.
    public static func seal(answer: String, context: SealedAnswerContext, coupleKeyset: Keyset) throws(KindredCryptoError) -> Sealed {
        try seal(answer: answer, context: context, cipher: CloserFieldCipher(coupleKeyset: coupleKeyset))
    }

    /// Seals an answer with a couple cipher made once (`CloserFieldCipher(coupleKeyset:)`), which
    /// saves reading the keyset on every call.
    /// - Parameters:
    ///   - answer: the answer text.
    ///   - context: couple, question and author.
    ///   - cipher: the couple's field cipher (seals the commitment).
    /// - Returns: payload, commitment, commitment seal and the one-time key.
    /// - Throws: `.tooLong` for an oversized answer.
    public static func seal(answer: String, context: SealedAnswerContext, cipher: CloserFieldCipher) throws(KindredCryptoError) -> Sealed {
        // One draw from the system CSPRNG for the nonce, both IVs and the one-time key.
        let nonceLength = SealedPayload.nonceLength, ivLength = CloserAESGCM.ivLength
        let random = SecureRandom.bytes(nonceLength + 2 * ivLength + CloserAESGCM.keyLength)
        let ivStart = nonceLength, sealIVStart = ivStart + ivLength, keyStart = sealIVStart + ivLength
        return try seal(answer: answer, context: context, cipher: cipher, oneTimeKey: Array(random[keyStart...]),
                        nonce: random[..<ivStart], iv: random[ivStart..<sealIVStart], commitmentSealIV: random[sealIVStart..<keyStart])
    }

    /// Seals with given random values (known-answer tests); a `nil` commitment-seal IV is drawn.
    static func seal(answer: String, context: SealedAnswerContext, cipher: CloserFieldCipher, oneTimeKey: [UInt8], nonce: [UInt8],
                     iv: [UInt8], commitmentSealIV: [UInt8]? = nil) throws(KindredCryptoError) -> Sealed {
        try seal(answer: answer, context: context, cipher: cipher, oneTimeKey: oneTimeKey, nonce: nonce[...], iv: iv[...],
                 commitmentSealIV: (commitmentSealIV ?? SecureRandom.bytes(CloserAESGCM.ivLength))[...])
    }

    private static func seal(answer: String, context: SealedAnswerContext, cipher: CloserFieldCipher, oneTimeKey: [UInt8],
                             nonce: ArraySlice<UInt8>, iv: ArraySlice<UInt8>, commitmentSealIV: ArraySlice<UInt8>) throws(KindredCryptoError) -> Sealed {
        let associatedData = context.associatedData
        let json = try SealedPayload.canonicalJSON(answer: answer, context: context, nonce: nonce)
        let payload = try SealedPayload.seal(json, oneTimeKey: oneTimeKey, associatedData: associatedData, iv: iv)
        let commitment = AnswerCommitment.commit(json)
        let seal = try cipher.encrypt(utf8: commitment, associatedData: associatedData, iv: commitmentSealIV)
        return Sealed(payload: payload, commitment: commitment, commitmentSeal: seal, oneTimeKey: oneTimeKey)
    }

    /// Opens a sealed answer with its one-time key and checks it completely.
    /// - Parameters:
    ///   - payload: `encryptedPayload` (`sealed:v1:`).
    ///   - commitment: `commitmentHash` (`sha256:`).
    ///   - commitmentSeal: `commitmentSeal` (`enc:v1:`).
    ///   - oneTimeKey: the 32-byte one-time key (from a keybox, or the author's own store).
    ///   - context: the couple, question and author the reader expects.
    ///   - coupleKeyset: the couple keyset.
    /// - Returns: the answer text.
    /// - Throws: format errors; `.authenticationFailed` when the key does not open the payload;
    ///   `.commitmentMismatch` when the commitment, the commitment seal or the payload's own
    ///   couple/question/user fields do not match.
    public static func open(payload: String, commitment: String, commitmentSeal: String, oneTimeKey: [UInt8],
                            context: SealedAnswerContext, coupleKeyset: Keyset) throws(KindredCryptoError) -> String {
        try open(payload: payload, commitment: commitment, commitmentSeal: commitmentSeal, oneTimeKey: oneTimeKey,
                 context: context, cipher: CloserFieldCipher(coupleKeyset: coupleKeyset))
    }

    /// Opens the partner's sealed answer at reveal: unwraps the keybox, then opens and checks.
    /// - Parameters:
    ///   - payload: the partner's `encryptedPayload`.
    ///   - commitment: the partner's `commitmentHash`.
    ///   - commitmentSeal: the partner's `commitmentSeal`.
    ///   - keybox: `releaseKeys/{me}.encryptedAnswerKey` (`keybox:v1:`).
    ///   - recipientPrivateKeyset: my ECIES private keyset.
    ///   - context: couple, question, sender (the partner, the answer's author) and recipient (me).
    ///   - coupleKeyset: the couple keyset.
    /// - Returns: the partner's answer text.
    /// - Throws: as `open(payload:commitment:commitmentSeal:oneTimeKey:context:coupleKeyset:)`, plus keybox errors.
    public static func open(payload: String, commitment: String, commitmentSeal: String, keybox: String,
                            recipientPrivateKeyset: Keyset, context: KeyboxContext, coupleKeyset: Keyset) throws(KindredCryptoError) -> String {
        let key = try Keybox.unwrap(keybox, recipientPrivateKeyset: recipientPrivateKeyset, context: context)
        return try open(payload: payload, commitment: commitment, commitmentSeal: commitmentSeal, oneTimeKey: key,
                        context: context.sealedAnswerContext, coupleKeyset: coupleKeyset)
    }

    /// Opens the partner's sealed answer at reveal with primitives made once: my hybrid decrypter
    /// (`TinkHybridDecrypt(privateKeyset:)`) and the couple cipher (`CloserFieldCipher(coupleKeyset:)`).
    /// - Parameters:
    ///   - payload: the partner's `encryptedPayload`.
    ///   - commitment: the partner's `commitmentHash`.
    ///   - commitmentSeal: the partner's `commitmentSeal`.
    ///   - keybox: `releaseKeys/{me}.encryptedAnswerKey` (`keybox:v1:`).
    ///   - recipient: my hybrid-decryption primitive.
    ///   - context: couple, question, sender (the partner, the answer's author) and recipient (me).
    ///   - cipher: the couple's field cipher.
    /// - Returns: the partner's answer text.
    /// - Throws: as `open(payload:commitment:commitmentSeal:keybox:recipientPrivateKeyset:context:coupleKeyset:)`,
    ///   without the keyset errors.
    public static func open(payload: String, commitment: String, commitmentSeal: String, keybox: String,
                            recipient: TinkHybridDecrypt, context: KeyboxContext, cipher: CloserFieldCipher) throws(KindredCryptoError) -> String {
        let key = try Keybox.unwrap(keybox, recipient: recipient, context: context)
        return try open(payload: payload, commitment: commitment, commitmentSeal: commitmentSeal, oneTimeKey: key,
                        context: context.sealedAnswerContext, cipher: cipher)
    }

    /// Opens a sealed answer with a couple cipher made once (`CloserFieldCipher(coupleKeyset:)`).
    /// - Parameters:
    ///   - payload: `encryptedPayload` (`sealed:v1:`).
    ///   - commitment: `commitmentHash` (`sha256:`).
    ///   - commitmentSeal: `commitmentSeal` (`enc:v1:`).
    ///   - oneTimeKey: the 32-byte one-time key.
    ///   - context: the couple, question and author the reader expects.
    ///   - cipher: the couple's field cipher.
    /// - Returns: the answer text.
    /// - Throws: as `open(payload:commitment:commitmentSeal:oneTimeKey:context:coupleKeyset:)`.
    public static func open(payload: String, commitment: String, commitmentSeal: String, oneTimeKey: [UInt8],
                            context: SealedAnswerContext, cipher: CloserFieldCipher) throws(KindredCryptoError) -> String {
        let digest = try AnswerCommitment.digest(of: commitment)  // a malformed commitment fails before any decryption
        let associatedData = context.associatedData
        return try SealedPayload.open(payload, oneTimeKey: oneTimeKey, associatedData: associatedData) { (json) throws(KindredCryptoError) in
            try AnswerCommitment.verify(digest: digest, matches: json)
            let sealedCommitment: [UInt8]
            do throws(KindredCryptoError) {
                sealedCommitment = try cipher.decrypt(commitmentSeal, associatedData: associatedData)
            } catch {
                switch error {
                case .authenticationFailed, .noMatchingKey: throw .commitmentMismatch
                default: throw error
                }
            }
            var commitmentText = commitment
            guard commitmentText.withUTF8({ ConstantTime.equals(sealedCommitment, $0) }) else { throw .commitmentMismatch }
            // The usual case in one pass; anything else (malformed, or naming other identifiers)
            // is decided by the general parser below, exactly as before the fast path existed.
            if let answer = json.withMemoryRebound(to: UInt8.self, { SealedPayload.answer($0, ifFor: context) }) { return answer }
            let contents = try SealedPayload.parse(Array(json))
            // Byte-wise comparison: Swift's String == would equate canonically equivalent spellings.
            guard contents.coupleId.utf8.elementsEqual(context.coupleId.utf8), contents.questionId.utf8.elementsEqual(context.questionId.utf8),
                  contents.userId.utf8.elementsEqual(context.userId.utf8) else {
                throw .commitmentMismatch
            }
            return contents.answer
        }
    }
}
