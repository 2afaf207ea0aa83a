import Foundation
import KindredCrypto
import KindredStore
import SQLKit

extension SigningKeyStore {
    /// Makes a new active key; the active one becomes `previous` and keeps verifying the tokens
    /// it signed. Previous keys superseded longer ago than the access-token lifetime plus two
    /// refresh intervals are retired (no valid token of theirs can remain), and with
    /// `retirePrevious` every other key is retired at once (after a leak: every access token
    /// signed before is refused; refresh tokens still work).
    /// - Returns: the new key's id.
    /// - Throws: `SigningKeyError` (no key-encryption key in production mode, keys sealed under
    ///   another one), or a database error.
    func rotate(retirePrevious: Bool) async throws -> String {
        guard settings.keyEncryptionKey != nil || !settings.requireKeyEncryptionKey else {
            throw SigningKeyError.keyEncryptionKeyRequired
        }
        let now = clock.now().millisecondsSince1970
        let id = "k" + Hex.encode(SecureRandom.bytes(6))
        let (stored, sealedBy) = try seal(SecureRandom.bytes(32), id: id)
        let stale = now - 2 * settings.refreshInterval.milliseconds - accessTokenLifetime.milliseconds
        try await database.transaction { sql in
            // Locks every row (PostgreSQL), so two rotations run one after the other.
            for row in try await rows(on: sql, locking: true) where row.state != .retired {
                // Every live key must open under this process's key-encryption key: a rotation
                // with another one would leave keys that no replica can open together.
                _ = try open(row)
            }
            try await sql.update("kindred_signing_keys")
                .set("state", to: State.previous.rawValue).set("superseded_at", to: now)
                .where("state", .equal, State.active.rawValue).run()
            var retire = sql.update("kindred_signing_keys")
                .set("state", to: State.retired.rawValue).set("retired_at", to: now).set("secret", to: "")
                .where("state", .equal, State.previous.rawValue)
            if !retirePrevious { retire = retire.where("superseded_at", .lessThan, stale) }
            try await retire.run()
            try await sql.insert(into: "kindred_signing_keys")
                .columns("id", "algorithm", "secret", "created_at", "state", "sealed_by")
                .values(
                    SQLBind(id), SQLBind("HS256"), SQLBind(stored), SQLBind(now),
                    SQLBind(State.active.rawValue), SQLBind(sealedBy)
                )
                .run()
        }
        return id
    }

    /// Retires a previous key: tokens it signed are refused from the next key refresh of each
    /// replica on, and its secret is erased.
    /// - Throws: `SigningKeyError.unknownKey`, `.cannotRetireActive`, `.alreadyRetired`, or a
    ///   database error.
    func retire(id: String) async throws {
        let now = clock.now().millisecondsSince1970
        try await database.transaction { sql in
            guard let row = try await rows(on: sql, locking: true).first(where: { $0.id == id }) else {
                throw SigningKeyError.unknownKey(id)
            }
            switch row.state {
            case .active: throw SigningKeyError.cannotRetireActive(id)
            case .retired: throw SigningKeyError.alreadyRetired(id)
            case .previous: break
            }
            try await sql.update("kindred_signing_keys")
                .set("state", to: State.retired.rawValue).set("retired_at", to: now).set("secret", to: "")
                .where("id", .equal, id).run()
        }
    }
}

extension SigningKeyStore {
    /// Seals every live key again under the configured key-encryption key: the second step of
    /// changing it in place (docs/security.md, "Rotating secrets"). Keys sealed under the
    /// previous key-encryption key (`SigningKeySettings.previousKeyEncryptionKey`) and plaintext
    /// keys are opened and sealed under the current one; retired keys have no secret left.
    /// Idempotent: keys already sealed under the current key are left as they are.
    /// - Returns: the ids of the keys sealed again, oldest first.
    /// - Throws: `SigningKeyError.resealNeedsKeyEncryptionKey` without a current key,
    ///   `.previousKeyEncryptionKeyIsCurrent` when both are the same key,
    ///   `.wrongKeyEncryptionKey` for a key sealed under neither, or a database error.
    func reseal() async throws -> [String] {
        guard let kek = settings.keyEncryptionKey else { throw SigningKeyError.resealNeedsKeyEncryptionKey }
        if let previous = settings.previousKeyEncryptionKey, previous.fingerprint == kek.fingerprint {
            throw SigningKeyError.previousKeyEncryptionKeyIsCurrent
        }
        return try await database.transaction { sql in
            var resealed: [String] = []
            // Locks every row (PostgreSQL), so a rotation waits for the re-sealing to commit.
            for row in try await rows(on: sql, locking: true) where row.state != .retired && row.sealedBy != kek.fingerprint {
                let secret = try open(row)
                var update = sql.update("kindred_signing_keys")
                    .set("secret", to: try kek.seal(secret, id: row.id, algorithm: row.algorithm))
                    .set("sealed_by", to: kek.fingerprint)
                    .where("id", .equal, row.id)
                update = row.sealedBy.map { update.where("sealed_by", .equal, $0) } ?? update.where("sealed_by", .is, SQLLiteral.null)
                try await update.run()
                resealed.append(row.id)
            }
            return resealed
        }
    }
}
