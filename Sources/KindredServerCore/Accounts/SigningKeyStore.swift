import Crypto
import Foundation
import KindredCrypto
import KindredStore
import SQLKit

/// Reads and changes the access-token signing keys in `kindred_signing_keys`.
///
/// Each key is `active` (signs new tokens and verifies; exactly one, enforced by a partial unique
/// index), `previous` (verifies the tokens it signed until they expire) or `retired` (refused;
/// its secret is erased). Secrets are sealed under the key-encryption key when one is configured
/// (`KeyEncryptionKey`); `sealed_by` names it by fingerprint, NULL for a plaintext secret.
///
/// The first key has the fixed id `k1` and is inserted with `ON CONFLICT DO NOTHING`, so
/// replicas starting together on one PostgreSQL agree on one key instead of each minting its own.
struct SigningKeyStore: Sendable {
    let database: Database
    let clock: any WallClock
    let settings: SigningKeySettings
    /// The access-token lifetime: a key superseded longer ago than this (plus two refresh
    /// intervals) signed no token that is still valid.
    let accessTokenLifetime: Duration

    /// A store over `database` with the account settings' key protection and token lifetime.
    init(database: Database, clock: any WallClock, auth: AuthConfiguration) {
        self.database = database
        self.clock = clock
        settings = auth.signingKeys
        accessTokenLifetime = auth.accessTokenLifetime
    }

    /// A key's states.
    enum State: String, Sendable {
        case active, previous, retired
    }

    /// One row, secret still as stored.
    struct Row: Sendable {
        var id: String
        var algorithm: String
        var secret: String
        var createdAt: Int64
        var state: State
        var sealedBy: String?
        var supersededAt: Int64?
        var retiredAt: Int64?
    }

    /// The usable keys: the codec over the active and previous ones, and the retired ids.
    struct KeySet: Sendable {
        var codec: AccessTokenCodec
        var retired: Set<String>
        /// The ids and states, to tell whether a fresh read changed anything.
        var signature: [String]
    }

    /// Makes the first key when there is none, seals plaintext keys when a key-encryption key is
    /// configured, and returns the usable keys.
    /// - Throws: `SigningKeyError` (no key-encryption key in production mode, a wrong one, a
    ///   damaged row), or a database error.
    func prepare() async throws -> KeySet {
        guard settings.keyEncryptionKey != nil || !settings.requireKeyEncryptionKey else {
            throw SigningKeyError.keyEncryptionKeyRequired
        }
        let existing = try await database.sql.select().column(SQLColumn("id")).from("kindred_signing_keys").limit(1).first()
        if existing == nil {
            let secret = SecureRandom.bytes(32)
            let (stored, sealedBy) = try seal(secret, id: "k1")
            try await database.sql.insert(into: "kindred_signing_keys")
                .columns("id", "algorithm", "secret", "created_at", "state", "sealed_by")
                .values(
                    SQLBind("k1"), SQLBind("HS256"), SQLBind(stored), SQLBind(clock.now().millisecondsSince1970),
                    SQLBind(State.active.rawValue), SQLBind(sealedBy)
                )
                .ignoringConflicts()
                .run()
        }
        if let kek = settings.keyEncryptionKey {
            for row in try await rows() where row.sealedBy == nil && row.state != .retired {
                let plain = try Base64.decode(row.secret, alphabet: .urlSafeNoPadding)
                try await database.sql.update("kindred_signing_keys")
                    .set("secret", to: try kek.seal(plain, id: row.id, algorithm: row.algorithm))
                    .set("sealed_by", to: kek.fingerprint)
                    .where("id", .equal, row.id).where("sealed_by", .is, SQLLiteral.null)
                    .run()
            }
        }
        return try await load()
    }

    /// Reads the keys as they are now.
    /// - Throws: `SigningKeyError` or a database error.
    func load() async throws -> KeySet {
        var keys: [String: SymmetricKey] = [:]
        var retired: Set<String> = []
        var active: String?
        var signature: [String] = []
        for row in try await rows() {
            signature.append("\(row.id):\(row.state.rawValue)")
            guard row.state != .retired else {
                retired.insert(row.id)
                continue
            }
            guard row.algorithm == "HS256" else { continue }
            keys[row.id] = SymmetricKey(data: try open(row))
            if row.state == .active { active = row.id }
        }
        guard let active else { throw SigningKeyError.noActiveKey }
        return KeySet(codec: AccessTokenCodec(keys: keys, currentKeyID: active), retired: retired, signature: signature)
    }

    /// Every row, oldest first.
    func rows(on sql: (any SQLDatabase)? = nil, locking: Bool = false) async throws -> [Row] {
        let sql = sql ?? database.sql
        var select = sql.select()
            .columns("id", "algorithm", "secret", "created_at", "state", "sealed_by", "superseded_at", "retired_at")
            .from("kindred_signing_keys").orderBy("created_at").orderBy("id")
        if locking, sql.dialect.locksSelectedRows { select = select.for(.update) }
        return try await select.all().map { row in
            let stateText = try row.decode(column: "state", as: String.self)
            return Row(
                id: try row.decode(column: "id", as: String.self),
                algorithm: try row.decode(column: "algorithm", as: String.self),
                secret: try row.decode(column: "secret", as: String.self),
                createdAt: try row.decode(column: "created_at", as: Int64.self),
                state: State(rawValue: stateText) ?? .retired,
                sealedBy: try row.decode(column: "sealed_by", as: String?.self),
                supersededAt: try row.decode(column: "superseded_at", as: Int64?.self),
                retiredAt: try row.decode(column: "retired_at", as: Int64?.self)
            )
        }
    }

    /// The secret of a row that is not retired.
    /// - Throws: `SigningKeyError` when it is sealed and cannot be opened here.
    func open(_ row: Row) throws -> [UInt8] {
        guard let sealedBy = row.sealedBy else {
            return try Base64.decode(row.secret, alphabet: .urlSafeNoPadding)
        }
        guard let kek = settings.keyEncryptionKey else { throw SigningKeyError.keysAreSealed(fingerprint: sealedBy) }
        if kek.fingerprint == sealedBy { return try kek.open(row.secret, id: row.id, algorithm: row.algorithm) }
        // During a change of key-encryption key, rows not yet re-sealed open under the old one.
        if let previous = settings.previousKeyEncryptionKey, previous.fingerprint == sealedBy {
            return try previous.open(row.secret, id: row.id, algorithm: row.algorithm)
        }
        throw SigningKeyError.wrongKeyEncryptionKey(stored: sealedBy, configured: kek.fingerprint)
    }

    /// A new secret as it is stored: sealed, with the sealing key's fingerprint, or plaintext and nil.
    func seal(_ secret: [UInt8], id: String) throws -> (stored: String, sealedBy: String?) {
        guard let kek = settings.keyEncryptionKey else {
            return (Base64.encode(secret, alphabet: .urlSafeNoPadding), nil)
        }
        return (try kek.seal(secret, id: id, algorithm: "HS256"), kek.fingerprint)
    }
}
