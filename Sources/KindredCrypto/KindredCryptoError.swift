/// The one error type of `KindredCrypto`: every decoder and primitive reports bad input
/// with one of these cases, never with a crash. See `docs/wire-formats.md`.
public enum KindredCryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input ended before the format's fixed fields did (`format` names the format).
    case truncated(format: String)
    /// The input does not start with the version prefix its format requires.
    case wrongPrefix(format: String, expected: String)
    /// The text or bytes are not valid in their encoding (Base64, hex, JSON, protobuf, PHC).
    case malformed(format: String, reason: String)
    /// The input is longer than the format's documented maximum.
    case tooLong(format: String, limit: Int)
    /// A Tink keyset is well-formed protobuf but not a usable keyset (no primary, disabled primary, …).
    case invalidKeyset(reason: String)
    /// The keyset holds a key type this library does not implement (its type URL).
    case unsupportedKeyType(typeURL: String)
    /// A key has the wrong length for its algorithm.
    case invalidKeySize(expected: Int, actual: Int)
    /// A public key is not a valid point on the curve.
    case invalidPublicKey
    /// Authentication failed: wrong key, wrong associated data, or a modified ciphertext.
    case authenticationFailed
    /// No key in the keyset matches the ciphertext's prefix, and no RAW key decrypts it.
    case noMatchingKey
    /// Parameters are outside what the algorithm accepts (for example Argon2 m < 8·p).
    case invalidParameters(String)
    /// KDF parameters read from the wire exceed Kindred's bounds; refused before any allocation.
    case parametersOutOfBounds(String)
    /// A recovery phrase is not ten words from the list (the reason names the first problem).
    case invalidPhrase(String)
    /// The phrase is well-formed but does not unwrap this couple key.
    case wrongPhrase
    /// The invite secret does not decrypt the invite, or does not match its verifier.
    case wrongInviteSecret
    /// A revealed payload does not match its commitment, or its fields do not match the context.
    case commitmentMismatch
    /// A streaming ciphertext segment is missing, reordered, truncated or modified.
    case streamCorrupted(String)

    public var description: String {
        switch self {
        case .truncated(let format): return "\(format): input is truncated"
        case .wrongPrefix(let format, let expected): return "\(format): expected prefix \(expected)"
        case .malformed(let format, let reason): return "\(format): malformed (\(reason))"
        case .tooLong(let format, let limit): return "\(format): longer than the limit of \(limit)"
        case .invalidKeyset(let reason): return "keyset: \(reason)"
        case .unsupportedKeyType(let url): return "keyset: unsupported key type \(url)"
        case .invalidKeySize(let expected, let actual): return "key: expected \(expected) bytes, got \(actual)"
        case .invalidPublicKey: return "public key: not a valid curve point"
        case .authenticationFailed: return "decryption failed: wrong key, wrong associated data or modified ciphertext"
        case .noMatchingKey: return "decryption failed: no key in the keyset matches"
        case .invalidParameters(let reason): return "invalid parameters: \(reason)"
        case .parametersOutOfBounds(let reason): return "parameters out of bounds: \(reason)"
        case .invalidPhrase(let reason): return "recovery phrase: \(reason)"
        case .wrongPhrase: return "recovery phrase: does not unlock this couple key"
        case .wrongInviteSecret: return "invite: wrong invite secret"
        case .commitmentMismatch: return "reveal: payload does not match its commitment"
        case .streamCorrupted(let reason): return "streaming ciphertext: \(reason)"
        }
    }
}
