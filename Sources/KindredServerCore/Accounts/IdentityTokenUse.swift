import Crypto
import Foundation
import KindredStore
import SQLKit

/// What makes an Apple or Google identity token good for one sign-in only: its nonce, and a
/// record of its use (docs/accounts.md, "Identity tokens: nonce and single use").
///
/// The app makes a random nonce, passes its SHA-256 (lower-case hex) to the provider, which signs
/// it into the token's `nonce` claim, and sends the nonce itself with the token. A thief who
/// copies the token off the wire or a log does not have the nonce; and a token, once used, is
/// refused until it expires (the SHA-256 of the whole token is kept that long).
struct IdentityTokenUse: Sendable {
    let database: Database

    /// The shortest and longest nonce a request may send.
    static let nonceLengths = 8...256

    /// Checks the request's `nonce` against the token's claim and `app`'s rule, then records the
    /// token's use.
    /// - Throws: 400 `invalid_nonce` (a nonce of the wrong length) or `nonce_required` (the app
    ///   requires one); 401 `invalid_identity_token` when the nonce and the claim disagree;
    ///   401 `identity_token_reused` for a second use.
    func accept(_ claims: IdentityClaims, idToken: String, nonce: String?, app: AppConfiguration) async throws {
        if let nonce, !Self.nonceLengths.contains(nonce.utf8.count) {
            throw KindredError.invalidNonce
        }
        switch (claims.nonce, nonce) {
        case (let claim?, let nonce?):
            guard Self.constantTimeEqual(claim, Self.hash(nonce)) else {
                throw KindredError.invalidIdentityToken("the identity token's nonce does not match the request's")
            }
        case (.some, nil):
            throw KindredError.invalidIdentityToken("the identity token carries a nonce: send it with the token")
        case (nil, .some):
            throw KindredError.invalidIdentityToken("the identity token carries no nonce, but the request sent one")
        case (nil, nil):
            if app.requiresIdentityNonce { throw KindredError.nonceRequired }
        }
        guard let expiresAt = claims.expiresAt else { return }
        let hash = Self.hash(idToken)
        let inserted = try await database.sql.raw("""
            INSERT INTO kindred_identity_token_uses (token_hash, expires_at) VALUES (\(bind: hash), \(bind: expiresAt.millisecondsSince1970))
            ON CONFLICT (token_hash) DO NOTHING RETURNING token_hash
            """).all()
        guard !inserted.isEmpty else { throw KindredError.identityTokenReused }
    }

    /// Lower-case hex SHA-256 of `text`'s UTF-8 bytes.
    static func hash(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Compares without an early exit on the first differing byte.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }

    /// Deletes at most `limit` use records of tokens that expired at or before `now`.
    /// - Returns: how many were deleted.
    static func purgeExpired(_ database: Database, now: Date, limit: Int) async throws -> Int {
        let expired = try await database.sql.select().column("token_hash").from("kindred_identity_token_uses")
            .where("expires_at", .lessThanOrEqual, now.millisecondsSince1970).limit(limit).all()
            .map { try $0.decode(column: "token_hash", as: String.self) }
        guard !expired.isEmpty else { return 0 }
        try await database.sql.delete(from: "kindred_identity_token_uses").where("token_hash", .in, expired).run()
        return expired.count
    }
}
