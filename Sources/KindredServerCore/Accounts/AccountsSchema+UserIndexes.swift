import KindredStore
import SQLKit

extension AccountsSchema {
    /// The console's user page counts a user's rows in every table the user-data registry lists
    /// (`AdminAccounts.dataSummary`), and account deletion deletes them by the same column: these
    /// indexes make each a range read instead of a scan of the table.
    static let userIndexes = Migration("accounts_0006_user_indexes") { sql in
        try await sql.create(index: "kindred_refresh_tokens_user").on("kindred_refresh_tokens").column("user_id").run()
    }
}
