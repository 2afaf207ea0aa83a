import KindredStore
import SQLKit

extension AccountsSchema {
    /// The states of the signing keys (`SigningKeyStore`): `state` (`active`, `previous`,
    /// `retired`), `sealed_by` (the fingerprint of the key-encryption key a secret is sealed
    /// under; NULL: plaintext, sealed at the next start with a key-encryption key),
    /// `superseded_at` and `retired_at`. The newest existing key stays active, older ones become
    /// previous; a partial unique index keeps one key active.
    static let signingKeyStates = Migration("accounts_0004_signing_key_states") { sql in
        try await sql.alter(table: "kindred_signing_keys")
            .column("state", type: .text, .notNull, .default(SQLLiteral.string("active"))).run()
        try await sql.alter(table: "kindred_signing_keys").column("sealed_by", type: .text).run()
        try await sql.alter(table: "kindred_signing_keys").column("superseded_at", type: .bigint).run()
        try await sql.alter(table: "kindred_signing_keys").column("retired_at", type: .bigint).run()
        try await sql.raw(
            """
            UPDATE kindred_signing_keys SET state = 'previous',
                superseded_at = (SELECT MAX(created_at) FROM kindred_signing_keys)
            WHERE id <> (SELECT id FROM kindred_signing_keys ORDER BY created_at DESC, id DESC LIMIT 1)
            """
        ).run()
        try await sql.raw(
            "CREATE UNIQUE INDEX kindred_signing_keys_one_active ON kindred_signing_keys (state) WHERE state = 'active'"
        ).run()
    }
}
