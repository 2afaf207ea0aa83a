import Crypto
import Foundation
import KindredCrypto

/// A game slot's commitment, as the server checks it (docs/wire-formats.md, "Closer games"):
/// `sha256:` ‖ Base64url-without-padding(SHA-256(`kindred/closer/game-commit/v1` ‖ 0x00 ‖
/// sessionId ‖ 0x00 ‖ userId ‖ 0x00 ‖ round (decimal) ‖ 0x00 ‖ nonce (32 bytes) ‖ ciphertext)).
///
/// A plain hash, not an HMAC: the server must verify the opening without any key, and hiding
/// comes from the 32-byte random nonce (the ciphertext is itself randomized AES-GCM); binding
/// from SHA-256's collision resistance. The session, member and round in the hash make a
/// commitment useless anywhere else (the server also refuses any commitment used before).
public enum GameCommitment {
    /// The domain-separation label.
    public static let label = "kindred/closer/game-commit/v1"

    /// The commitment string.
    /// - Parameters:
    ///   - sessionID: The session.
    ///   - userID: The committing member.
    ///   - round: The round (1, or 2 for Desire Sync's second exchange).
    ///   - nonce: 32 random bytes.
    ///   - ciphertext: The slot's `enc:v1:` ciphertext.
    /// - Returns: `sha256:` and 43 Base64url characters.
    public static func commitment(sessionID: String, userID: String, round: Int, nonce: [UInt8], ciphertext: String) -> String {
        var hasher = SHA256()
        for part in [label, sessionID, userID, String(round)] {
            hasher.update(data: Array(part.utf8))
            hasher.update(data: [0])
        }
        hasher.update(data: nonce)
        hasher.update(data: Array(ciphertext.utf8))
        return "sha256:" + Base64.encode(Array(hasher.finalize()), alphabet: .urlSafeNoPadding)
    }
}

/// One slot ready to send: the ciphertext, its nonce and the commitment to both.
public struct GameOpening: Sendable, Equatable, Codable {
    /// `enc:v1:` under the couple key, AAD the couple id.
    public var ciphertext: String
    /// 32 random bytes, standard Base64 (what the opening carries).
    public var nonce: String
    /// `sha256:…`, sent first.
    public var commitment: String

    /// Seals `content` for its session and member.
    /// - Throws: `CloserKitError.crypto` when the cipher fails.
    public static func seal(_ content: GameSlotContent, cipher: CloserFieldCipher, coupleID: String) throws(CloserKitError) -> GameOpening {
        let json: String
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            json = String(decoding: try encoder.encode(content), as: UTF8.self)
        } catch {
            throw .invalidInput("the slot could not be encoded: \(error)")
        }
        let ciphertext: String
        do {
            ciphertext = try cipher.encrypt(json, coupleId: coupleID)
        } catch {
            throw .crypto(error)
        }
        let nonce = SecureRandom.bytes(32)
        return GameOpening(
            ciphertext: ciphertext, nonce: Base64.encode(nonce, alphabet: .standard),
            commitment: GameCommitment.commitment(sessionID: content.sessionId, userID: content.userId, round: content.round, nonce: nonce, ciphertext: ciphertext)
        )
    }

    /// Opens the partner's slot: checks it against its commitment, decrypts it and checks it
    /// names the expected session, member and round (a ciphertext replayed from another
    /// session or round is refused).
    /// - Throws: `CloserKitError.tampered` or `.crypto`.
    public static func open(
        ciphertext: String, nonce: String, commitment: String, sessionID: String, userID: String, round: Int,
        cipher: CloserFieldCipher, coupleID: String
    ) throws(CloserKitError) -> GameSlotContent {
        guard let nonceBytes = try? Base64.decode(nonce, alphabet: .standard), nonceBytes.count == 32 else {
            throw .tampered("the partner's nonce is not 32 bytes")
        }
        let expected = GameCommitment.commitment(sessionID: sessionID, userID: userID, round: round, nonce: nonceBytes, ciphertext: ciphertext)
        guard ConstantTime.equals(Array(expected.utf8), Array(commitment.utf8)) else { throw .tampered("the partner's slot does not match its commitment") }
        let plaintext: [UInt8]
        do {
            plaintext = try cipher.decrypt(ciphertext, coupleId: coupleID)
        } catch {
            throw .crypto(error)
        }
        guard let content = try? JSONDecoder().decode(GameSlotContent.self, from: Data(plaintext)) else {
            throw .tampered("the partner's slot is not a game slot")
        }
        guard content.sessionId == sessionID, content.userId == userID, content.round == round else {
            throw .tampered("the partner's slot belongs to another session, member or round")
        }
        return content
    }
}
