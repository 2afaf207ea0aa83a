/// The couple key wrapped under the recovery phrase, as stored on `couples/{coupleId}` and on
/// the invite: `wrappedCoupleKey`, `kdfSalt` and `kdfParams`.
///
/// ```
/// key              = Argon2id(UTF-8(normalised phrase), salt, m, t, p, 32 bytes)
/// wrappedCoupleKey = Base64( IV (12) ‖ AES-256-GCM(key, IV, serialized keyset, aad = "closer_couple_key") ‖ tag (16) )
/// kdfSalt          = Base64( 16 random bytes )        (24 characters)
/// kdfParams        = {"alg":"argon2id","len":32,"m":46080,"p":1,"t":3,"v":19}
/// ```
/// Spec: `docs/wire-formats.md`, "Couple-key wrap".
public struct WrappedCoupleKey: Equatable, Sendable {
    /// The associated data of the wrap.
    public static let associatedData = "closer_couple_key"
    /// Salt length in bytes.
    public static let saltLength = 16
    /// The longest `wrappedCoupleKey` accepted (16 KiB of Base64).
    public static let maximumWrappedLength = 16_384

    /// Standard Base64 of `IV ‖ ciphertext ‖ tag`.
    public let wrappedCoupleKey: String
    /// Standard Base64 of the 16-byte Argon2id salt.
    public let kdfSalt: String
    /// The Argon2id parameters as canonical JSON (`CloserKDFParameters.encoded`).
    public let kdfParams: String

    /// Holds three fields read from the wire (checked when unwrapped).
    /// - Parameters:
    ///   - wrappedCoupleKey: `couples/{coupleId}.wrappedCoupleKey`.
    ///   - kdfSalt: `kdfSalt`.
    ///   - kdfParams: `kdfParams`.
    public init(wrappedCoupleKey: String, kdfSalt: String, kdfParams: String) {
        self.wrappedCoupleKey = wrappedCoupleKey
        self.kdfSalt = kdfSalt
        self.kdfParams = kdfParams
    }

    /// Wraps a couple keyset under a recovery phrase with a fresh random salt.
    /// - Parameters:
    ///   - keyset: the couple's Tink AES-256-GCM keyset.
    ///   - phrase: the recovery phrase.
    ///   - parameters: Argon2id parameters (`.closer` in production).
    /// - Returns: the three wire fields.
    /// - Throws: `KindredCryptoError` from Argon2id, or `.tooLong` for an oversized keyset.
    public static func wrap(_ keyset: Keyset, phrase: RecoveryPhrase, parameters: CloserKDFParameters = .closer) throws(KindredCryptoError) -> WrappedCoupleKey {
        try wrap(keyset, phrase: phrase, parameters: parameters, salt: SecureRandom.bytes(saltLength), iv: nil)
    }

    static func wrap(_ keyset: Keyset, phrase: RecoveryPhrase, parameters: CloserKDFParameters, salt: [UInt8], iv: [UInt8]?) throws(KindredCryptoError) -> WrappedCoupleKey {
        let key = try parameters.derive(password: Array(phrase.normalized.utf8), salt: salt)
        let blob = try CloserAESGCM.seal(keyset.serialized(), key: key, associatedData: Array(associatedData.utf8), iv: iv)
        let wrapped = Base64.encode(blob, alphabet: .standard)
        guard wrapped.utf8.count <= maximumWrappedLength else { throw .tooLong(format: "wrappedCoupleKey", limit: maximumWrappedLength) }
        return WrappedCoupleKey(wrappedCoupleKey: wrapped, kdfSalt: Base64.encode(salt, alphabet: .standard), kdfParams: parameters.encoded)
    }

    /// Unwraps the couple keyset with the recovery phrase.
    /// - Parameter phrase: the recovery phrase.
    /// - Returns: the couple keyset.
    /// - Throws: `.parametersOutOfBounds` (before any Argon2 allocation), `.tooLong`,
    ///   `.malformed` or `.truncated` for bad fields, `.wrongPhrase` when the phrase does not
    ///   unlock the key, and keyset decoding errors if the unwrapped bytes are not a keyset.
    public func unwrap(phrase: RecoveryPhrase) throws(KindredCryptoError) -> Keyset {
        let parameters = try CloserKDFParameters(encoded: kdfParams)
        let salt = try Self.decodeSalt(kdfSalt)
        guard wrappedCoupleKey.utf8.count <= Self.maximumWrappedLength else {
            throw .tooLong(format: "wrappedCoupleKey", limit: Self.maximumWrappedLength)
        }
        let blob = try Base64.decode(wrappedCoupleKey, alphabet: .standard, format: "wrappedCoupleKey")
        guard blob.count >= CloserAESGCM.ivLength + CloserAESGCM.tagLength else { throw .truncated(format: "wrappedCoupleKey") }
        let key = try parameters.derive(password: Array(phrase.normalized.utf8), salt: salt)
        let plaintext: [UInt8]
        do {
            plaintext = try CloserAESGCM.open(blob, key: key, associatedData: Array(Self.associatedData.utf8), format: "wrappedCoupleKey")
        } catch {
            throw error == .authenticationFailed ? .wrongPhrase : error
        }
        return try Keyset(serialized: plaintext)
    }

    /// Decodes a 16-byte salt written as standard Base64.
    static func decodeSalt(_ text: String) throws(KindredCryptoError) -> [UInt8] {
        guard text.utf8.count <= 64 else { throw .tooLong(format: "kdfSalt", limit: 64) }
        let salt = try Base64.decode(text, alphabet: .standard, format: "kdfSalt")
        guard salt.count == saltLength else { throw .malformed(format: "kdfSalt", reason: "salt must be \(saltLength) bytes, got \(salt.count)") }
        return salt
    }
}
