import Crypto

/// Closer's invite transport: hands the recovery phrase from inviter to acceptor through the
/// server without the server (or anyone who guesses the six-character code) learning it.
///
/// ```
/// stretched    = Argon2id(ASCII(secret's 13 symbols), kdfSalt (16 random bytes), kdfParams, 32)
/// phraseKey    = HKDF-SHA256(stretched, salt = ∅, info = "closer-invite-v1|phrase-key|" + code, 32)
/// verifierKey  = HKDF-SHA256(stretched, salt = ∅, info = "closer-invite-v1|verifier-key|" + code, 32)
/// encryptedPhrase = "invite:v1:" + b64url( IV ‖ AES-256-GCM(phraseKey, IV, UTF-8(phrase),
///                                          aad = "closer-invite-phrase-v1|" + code) ‖ tag )
/// verifier     = "verifier:v1:" + b64url( HMAC-SHA256(verifierKey, "closer-invite-verifier-v1|" + code) )
/// ```
/// Spec: `docs/wire-formats.md`, "Invite transport".
public enum InviteTransport {
    static let phraseKeyInfo = "closer-invite-v1|phrase-key|"
    static let verifierKeyInfo = "closer-invite-v1|verifier-key|"
    static let phraseAADPrefix = "closer-invite-phrase-v1|"
    static let verifierMessagePrefix = "closer-invite-verifier-v1|"

    /// What `create` returns: the secret stays on the inviter's device (shown with the code);
    /// the other four fields go to `createInvite` and are stored on `invites/{code}`.
    public struct Creation: Sendable {
        /// The client-only secret, shown to the inviter as part of `InviteShare`.
        public let secret: InviteSecret
        /// `invite:v1:` — the phrase, encrypted.
        public let encryptedPhrase: String
        /// `verifier:v1:` — what the server compares the acceptor's proof with.
        public let verifier: String
        /// Standard Base64 of the 16-byte Argon2id salt.
        public let kdfSalt: String
        /// The Argon2id parameters (`CloserKDFParameters.encoded`).
        public let kdfParams: String
    }

    /// Creates an invite's client-side material for a code the server assigned (or will confirm).
    /// - Parameters:
    ///   - phrase: the couple's recovery phrase.
    ///   - code: the six-character invite code (`^[A-Za-z0-9]{6}$`).
    ///   - parameters: Argon2id parameters (`.closer` in production; tests pass cheap ones).
    /// - Returns: the secret and the four server-side fields.
    /// - Throws: `.malformed(format: "invite code", …)` for a bad code, Argon2id errors.
    public static func create(phrase: RecoveryPhrase, code: String, parameters: CloserKDFParameters = .closer) throws(KindredCryptoError) -> Creation {
        try create(phrase: phrase, code: code, parameters: parameters, secret: .generate(),
                   salt: SecureRandom.bytes(WrappedCoupleKey.saltLength), iv: nil)
    }

    static func create(phrase: RecoveryPhrase, code: String, parameters: CloserKDFParameters, secret: InviteSecret, salt: [UInt8], iv: [UInt8]?) throws(KindredCryptoError) -> Creation {
        try InviteCode.check(code)
        let keys = try InviteKeys(secret: secret, code: code, salt: salt, parameters: parameters)
        let blob = try CloserAESGCM.seal(Array(phrase.normalized.utf8), key: keys.phraseKey,
                                         associatedData: Array((phraseAADPrefix + code).utf8), iv: iv)
        return Creation(secret: secret,
                        encryptedPhrase: CloserWireFormat.Format.invitePhrase.prefix + Base64.encode(blob, alphabet: .urlSafeNoPadding),
                        verifier: keys.verifier, kdfSalt: Base64.encode(salt, alphabet: .standard), kdfParams: parameters.encoded)
    }

    /// The acceptor's proof: the verifier derived from the secret the inviter shared.
    /// - Parameters:
    ///   - secret: the secret from the share string.
    ///   - code: the invite code.
    ///   - kdfSalt: the invite's salt (the server returns it for the code).
    ///   - kdfParams: the invite's parameters (likewise; bounded before use).
    /// - Returns: the `verifier:v1:` string to send with `acceptInvite`.
    /// - Throws: `.parametersOutOfBounds`, `.malformed`, `.tooLong` for bad fields, Argon2id errors.
    public static func verifier(secret: InviteSecret, code: String, kdfSalt: String, kdfParams: String) throws(KindredCryptoError) -> String {
        try InviteKeys(secret: secret, code: code, kdfSalt: kdfSalt, kdfParams: kdfParams).verifier
    }

    /// Server side: compares the verifier an acceptor presents with the stored one, in constant time.
    /// - Parameters:
    ///   - presented: the `verifier:v1:` string from `acceptInvite`.
    ///   - stored: the `verifier:v1:` string saved at `createInvite`.
    /// - Returns: `true` only when both are well-formed and equal.
    public static func verify(presented: String, stored: String) -> Bool {
        guard let a = try? CloserWireFormat.decodeBody(presented, as: .inviteVerifier),
              let b = try? CloserWireFormat.decodeBody(stored, as: .inviteVerifier) else { return false }
        return ConstantTime.equals(a, b)
    }

    /// The acceptor decrypts the phrase the server returned after a successful accept.
    /// - Parameters:
    ///   - encryptedPhrase: the `invite:v1:` string.
    ///   - secret: the secret from the share string.
    ///   - code: the invite code.
    ///   - kdfSalt: the invite's salt.
    ///   - kdfParams: the invite's parameters.
    /// - Returns: the recovery phrase.
    /// - Throws: format errors, `.wrongInviteSecret` when the secret, code or blob do not match.
    public static func decryptPhrase(_ encryptedPhrase: String, secret: InviteSecret, code: String, kdfSalt: String, kdfParams: String) throws(KindredCryptoError) -> RecoveryPhrase {
        try InviteKeys(secret: secret, code: code, kdfSalt: kdfSalt, kdfParams: kdfParams).decryptPhrase(encryptedPhrase)
    }
}

/// The two keys an invite secret yields (one Argon2id run serves both the verifier and the
/// phrase). Spec: `docs/wire-formats.md`, "Invite transport".
public struct InviteKeys: Sendable {
    let code: String
    let phraseKey: [UInt8]
    let verifierKey: [UInt8]

    /// Derives the keys from the secret and the invite's public fields.
    /// - Parameters:
    ///   - secret: the invite secret.
    ///   - code: the invite code.
    ///   - kdfSalt: standard Base64 of 16 bytes.
    ///   - kdfParams: `CloserKDFParameters.encoded` (bounded before Argon2id allocates).
    /// - Throws: `.parametersOutOfBounds`, `.malformed`, `.tooLong`, Argon2id errors.
    public init(secret: InviteSecret, code: String, kdfSalt: String, kdfParams: String) throws(KindredCryptoError) {
        let parameters = try CloserKDFParameters(encoded: kdfParams)
        let salt = try WrappedCoupleKey.decodeSalt(kdfSalt)
        try self.init(secret: secret, code: code, salt: salt, parameters: parameters)
    }

    init(secret: InviteSecret, code: String, salt: [UInt8], parameters: CloserKDFParameters) throws(KindredCryptoError) {
        try InviteCode.check(code)
        let stretched = SymmetricKey(data: try parameters.derive(password: Array(secret.symbols.utf8), salt: salt))
        func expand(_ info: String) -> [UInt8] {
            HKDF<SHA256>.deriveKey(inputKeyMaterial: stretched, info: Array((info + code).utf8), outputByteCount: 32)
                .withUnsafeBytes { Array($0) }
        }
        self.code = code
        phraseKey = expand(InviteTransport.phraseKeyInfo)
        verifierKey = expand(InviteTransport.verifierKeyInfo)
    }

    /// The `verifier:v1:` string.
    public var verifier: String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array((InviteTransport.verifierMessagePrefix + code).utf8),
                                                  using: SymmetricKey(data: verifierKey))
        return CloserWireFormat.Format.inviteVerifier.prefix + Base64.encode(Array(mac), alphabet: .urlSafeNoPadding)
    }

    /// Decrypts an `invite:v1:` blob.
    /// - Parameter encryptedPhrase: the `invite:v1:` string.
    /// - Returns: the recovery phrase.
    /// - Throws: format errors, `.wrongInviteSecret` when authentication fails, `.invalidPhrase`
    ///   if the plaintext is not a phrase.
    public func decryptPhrase(_ encryptedPhrase: String) throws(KindredCryptoError) -> RecoveryPhrase {
        let blob = try CloserWireFormat.decodeBody(encryptedPhrase, as: .invitePhrase)
        let plaintext: [UInt8]
        do {
            plaintext = try CloserAESGCM.open(blob, key: phraseKey, associatedData: Array((InviteTransport.phraseAADPrefix + code).utf8),
                                              format: CloserWireFormat.Format.invitePhrase.rawValue)
        } catch {
            throw error == .authenticationFailed ? .wrongInviteSecret : error
        }
        guard let text = String(validating: plaintext, as: UTF8.self) else { throw .invalidPhrase("not UTF-8") }
        let phrase = try RecoveryPhrase(parsing: text)
        guard phrase.normalized == text else { throw .invalidPhrase("not in normalised form") }
        return phrase
    }
}
