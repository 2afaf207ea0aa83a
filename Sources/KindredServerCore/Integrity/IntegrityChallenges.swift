import Crypto
import Foundation
import KindredCrypto
import KindredStore
import SQLKit

/// Single-use, short-lived server challenges: issued to a signed-in user of one app, consumed by
/// exactly one attestation, assertion or Play Integrity submission.
struct IntegrityChallenges: Sendable {
    let database: Database
    let clock: any WallClock
    let lifetime: Duration

    /// A new challenge: 32 random bytes, base64url without padding, and when it expires.
    func issue(userID: String, app: AppID) async throws -> (challenge: String, expiresAt: Date) {
        let challenge = Self.base64URL(SecureRandom.bytes(32))
        let now = clock.now()
        let expiresAt = now.addingTimeInterval(Double(lifetime.integrityMilliseconds) / 1000)
        // Challenges that expired a day ago or more are cleared as the user asks for new ones.
        try await database.sql.delete(from: "kindred_integrity_challenges")
            .where("user_id", .equal, userID)
            .where("expires_at", .lessThan, now.millisecondsSince1970 - 86_400_000)
            .run()
        try await database.sql.insert(into: "kindred_integrity_challenges")
            .columns("challenge_hash", "user_id", "app", "created_at", "expires_at")
            .values(
                SQLBind(Self.hash(challenge)), SQLBind(userID), SQLBind(app.rawValue),
                SQLBind(now.millisecondsSince1970), SQLBind(expiresAt.millisecondsSince1970)
            )
            .run()
        return (challenge, expiresAt)
    }

    /// Marks `challenge` used, once.
    /// - Throws: 400 `invalid_challenge` (unknown, or another user's or app's), 409 `challenge_used`,
    ///   410 `challenge_expired`.
    func consume(_ challenge: String, userID: String, app: AppID) async throws {
        let hash = Self.hash(challenge)
        let now = clock.now().millisecondsSince1970
        let claimed = try await database.sql.raw("""
            UPDATE kindred_integrity_challenges SET used_at = \(bind: now)
            WHERE challenge_hash = \(bind: hash) AND user_id = \(bind: userID) AND app = \(bind: app.rawValue)
            AND used_at IS NULL AND expires_at > \(bind: now) RETURNING challenge_hash
            """).all()
        guard claimed.isEmpty else { return }
        let row = try await database.sql.select().column("used_at").column("expires_at")
            .from("kindred_integrity_challenges")
            .where("challenge_hash", .equal, hash).where("user_id", .equal, userID).where("app", .equal, app.rawValue)
            .first()
        guard let row else { throw KindredError.invalidChallenge }
        if try row.decode(column: "used_at", as: Int64?.self) != nil { throw KindredError.challengeUsed }
        throw KindredError.challengeExpired
    }

    /// Lower-case hex SHA-256 of the challenge's UTF-8 bytes.
    static func hash(_ challenge: String) -> String {
        SHA256.hash(data: Array(challenge.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Base64url without padding (RFC 4648 §5).
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
