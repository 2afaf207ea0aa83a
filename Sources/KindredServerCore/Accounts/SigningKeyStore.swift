import Crypto
import Foundation
import KindredCrypto
import KindredStore
import SQLKit

/// Loads the access-token signing keys from `kindred_signing_keys`, creating the first one
/// when the table is empty.
///
/// The first key has the fixed id `k1` and is inserted with `ON CONFLICT DO NOTHING`, so
/// replicas starting together on one PostgreSQL agree on one key instead of each minting its own.
enum SigningKeyStore {
    /// Reads (or creates, once) the keys and returns a codec signing with the newest.
    static func load(_ database: Database, clock: any WallClock) async throws -> AccessTokenCodec {
        let secret = Base64.encode(SecureRandom.bytes(32), alphabet: .urlSafeNoPadding)
        try await database.sql.insert(into: "kindred_signing_keys")
            .columns("id", "algorithm", "secret", "created_at")
            .values(SQLBind("k1"), SQLBind("HS256"), SQLBind(secret), SQLBind(clock.now().millisecondsSince1970))
            .ignoringConflicts(with: ["id"])
            .run()
        let rows = try await database.sql.select().columns("id", "algorithm", "secret")
            .from("kindred_signing_keys").orderBy("created_at").all()
        var keys: [String: SymmetricKey] = [:]
        var newest = "k1"
        for row in rows {
            let id = try row.decode(column: "id", as: String.self)
            guard try row.decode(column: "algorithm", as: String.self) == "HS256" else { continue }
            let bytes = try Base64.decode(try row.decode(column: "secret", as: String.self), alphabet: .urlSafeNoPadding)
            keys[id] = SymmetricKey(data: bytes)
            newest = id
        }
        return AccessTokenCodec(keys: keys, currentKeyID: newest)
    }
}
