import Crypto
import Foundation
import KindredCrypto

/// The successor pair a refresh token was rotated to, kept sealed in the token's row so that a
/// retry within the grace window gets the same pair again (idempotent) instead of a new branch.
///
/// The pair is sealed with AES-256-GCM under a key derived (HKDF-SHA256) from the refresh token
/// itself: only a caller presenting the token can open it; the database holds only the token's
/// SHA-256 hash, so a copy of the database does not open it either.
extension TokenService {
    /// The HKDF `info` of a successor's sealing key.
    static let successorInfo = Array("kindred refresh successor v1".utf8)

    /// Seals `tokens` under a key derived from `refreshToken` (the token they succeed).
    /// - Returns: the base64 of AES-GCM's combined nonce, ciphertext and tag.
    /// - Throws: when the system's random source or AES-GCM fails.
    static func sealSuccessor(_ tokens: IssuedTokens, of refreshToken: String) throws -> String {
        let plain = Array("\(tokens.expiresIn)\n\(tokens.accessToken)\n\(tokens.refreshToken)".utf8)
        let box = try AES.GCM.seal(plain, using: successorKey(of: refreshToken))
        guard let combined = box.combined else { throw KindredError.internal }
        return Base64.encode(Array(combined), alphabet: .standard)
    }

    /// Opens a successor sealed by `sealSuccessor(_:of:)` with the token it succeeds.
    /// - Returns: the pair, or nil when `sealed` does not open with this token or is malformed.
    static func openSuccessor(_ sealed: String, of refreshToken: String) -> IssuedTokens? {
        guard let bytes = try? Base64.decode(sealed, alphabet: .standard),
            let box = try? AES.GCM.SealedBox(combined: bytes),
            let plain = try? AES.GCM.open(box, using: successorKey(of: refreshToken)),
            let text = String(bytes: plain, encoding: .utf8)
        else { return nil }
        let parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let expiresIn = Int(parts[0]) else { return nil }
        return IssuedTokens(accessToken: parts[1], refreshToken: parts[2], expiresIn: expiresIn)
    }

    /// The AES-256 key of a token's successor: HKDF-SHA256 of the token's text.
    private static func successorKey(of refreshToken: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Array(refreshToken.utf8)), info: successorInfo, outputByteCount: 32
        )
    }
}
