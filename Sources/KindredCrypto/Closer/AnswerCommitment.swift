import Crypto

/// `sha256:` — the commitment to a sealed answer: `"sha256:" + base64url-no-padding(SHA-256(
/// canonical JSON))`, 43 body characters. Spec: `docs/wire-formats/closer.md`, "sha256 commitment".
public enum AnswerCommitment {
    /// Computes the commitment of a payload's canonical JSON.
    /// - Parameter json: the canonical JSON bytes (the `sealed:v1:` plaintext).
    /// - Returns: the `sha256:` string (50 characters).
    public static func commit(_ json: [UInt8]) -> String {
        CloserWireFormat.Format.commitmentHash.prefix
            + Base64.encode(Array(SHA256.hash(data: json)), alphabet: .urlSafeNoPadding)
    }

    /// Decodes a commitment string to its 32 digest bytes.
    /// - Parameter commitment: the `sha256:` string.
    /// - Returns: the digest.
    /// - Throws: `.wrongPrefix`, `.tooLong`, `.truncated` or `.malformed`.
    public static func digest(of commitment: String) throws(KindredCryptoError) -> [UInt8] {
        try CloserWireFormat.decodeBody(commitment, as: .commitmentHash)
    }

    /// Checks, in constant time, that a commitment matches the canonical JSON.
    /// - Parameters:
    ///   - commitment: the `sha256:` string read from the wire.
    ///   - json: the decrypted canonical JSON.
    /// - Throws: the decoding errors of `digest(of:)`, or `.commitmentMismatch`.
    public static func verify(_ commitment: String, matches json: [UInt8]) throws(KindredCryptoError) {
        let expected = try digest(of: commitment)
        guard ConstantTime.equals(Array(SHA256.hash(data: json)), expected) else { throw .commitmentMismatch }
    }
}
