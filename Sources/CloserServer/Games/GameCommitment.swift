import Crypto
import Foundation
import KindredCrypto

/// A game slot's commitment (docs/wire-formats.md, "Closer games"):
/// `sha256:` ‖ Base64url-without-padding(SHA-256(`kindred/closer/game-commit/v1` ‖ 0x00 ‖
/// sessionId ‖ 0x00 ‖ userId ‖ 0x00 ‖ round (decimal) ‖ 0x00 ‖ nonce (32 bytes) ‖ ciphertext
/// (the `enc:v1:` string's UTF-8))). The server checks openings with it; CloserKit's
/// `GameCommitment` computes the same bytes on the device.
enum GameCommitment {
    /// The domain-separation label.
    static let label = "kindred/closer/game-commit/v1"

    /// The commitment string.
    /// - Parameters:
    ///   - sessionID: The session.
    ///   - userID: The slot's member: a commitment copied into the partner's slot cannot be opened.
    ///   - round: The round.
    ///   - nonce: 32 random bytes.
    ///   - ciphertext: The slot's `enc:v1:` ciphertext.
    /// - Returns: `sha256:` and 43 Base64url characters.
    static func commitment(sessionID: String, userID: String, round: Int, nonce: [UInt8], ciphertext: String) -> String {
        var hasher = SHA256()
        for part in [label, sessionID, userID, String(round)] {
            hasher.update(data: Array(part.utf8))
            hasher.update(data: [0])
        }
        hasher.update(data: nonce)
        hasher.update(data: Array(ciphertext.utf8))
        return "sha256:" + Base64.encode(Array(hasher.finalize()), alphabet: .urlSafeNoPadding)
    }

    /// Whether the opening hashes to `commitment` (compared in constant time).
    static func verifies(_ commitment: String, sessionID: String, userID: String, round: Int, nonce: [UInt8], ciphertext: String) -> Bool {
        let expected = self.commitment(sessionID: sessionID, userID: userID, round: round, nonce: nonce, ciphertext: ciphertext)
        return ConstantTime.equals(Array(expected.utf8), Array(commitment.utf8))
    }
}
