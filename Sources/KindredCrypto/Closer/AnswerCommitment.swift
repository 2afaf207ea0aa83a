import Crypto

/// `sha256:` — the commitment to a sealed answer: `"sha256:" + base64url-no-padding(SHA-256(
/// canonical JSON))`, 43 body characters. Spec: `docs/wire-formats.md`, "sha256 commitment".
public enum AnswerCommitment {
    /// Computes the commitment of a payload's canonical JSON.
    /// - Parameter json: the canonical JSON bytes (the `sealed:v1:` plaintext).
    /// - Returns: the `sha256:` string (50 characters).
    public static func commit(_ json: [UInt8]) -> String {
        SHA256.hash(data: json).withUnsafeBytes {
            Base64.encode($0, alphabet: .urlSafeNoPadding, prefix: CloserWireFormat.Format.commitmentHash.prefix)
        }
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
        try json.withBytes { (bytes) throws(KindredCryptoError) in try verify(digest: expected, matches: bytes) }
    }

    /// `verify(_:matches:)` for an already decoded commitment.
    /// - Parameters:
    ///   - digest: the 32 bytes `digest(of:)` returned.
    ///   - json: the decrypted canonical JSON.
    /// - Throws: `.commitmentMismatch`.
    static func verify(digest: [UInt8], matches json: UnsafeRawBufferPointer) throws(KindredCryptoError) {
        guard SHA256.hash(data: json).withUnsafeBytes({ ConstantTime.equals($0, digest) }) else { throw .commitmentMismatch }
    }
}
