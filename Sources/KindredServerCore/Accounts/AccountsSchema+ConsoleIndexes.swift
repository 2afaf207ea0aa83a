import KindredStore
import SQLKit

extension AccountsSchema {
    /// Indexes for reading accounts at a million users (the operators' console):
    /// - `kindred_users_display_name`, `_first_name`, `_last_name`: each name lower-cased in code
    ///   point order (partial: accounts without the name cost nothing), so a name-prefix search is
    ///   one index range per name instead of a scan of every account;
    /// - `kindred_sessions_active`: live sessions by app and expiry with their user, so "active in
    ///   the last day" per app is a range of one index, read without visiting the table.
    static let consoleIndexes = Migration("accounts_0005_console_indexes") { sql in
        for column in ["display_name", "first_name", "last_name"] {
            // unsafeRaw: an index name built from a fixed column name, left unquoted as deployed
            // databases recorded this migration's text (SQLite keeps it in sqlite_master).
            try await sql.raw(
                """
                CREATE INDEX \(unsafeRaw: "kindred_users_" + column) ON kindred_users \
                ((LOWER(\(ident: column))\(SQLCodePointCollation()))) WHERE \(ident: column) IS NOT NULL
                """
            ).run()
        }
        try await sql.raw(
            """
            CREATE INDEX kindred_sessions_active ON kindred_sessions (app, expires_at, user_id) \
            WHERE revoked_at IS NULL
            """
        ).run()
    }
}
