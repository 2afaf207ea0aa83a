import KindredServerCore
import KindredStore
import SQLKit

extension BillingSchema {
    /// The console's user page counts a user's rows in every table the user-data registry lists
    /// (`AdminAccounts.dataSummary`), and account deletion deletes them by the same column: these
    /// indexes make each a range read instead of a scan of the table.
    static let userIndexes = Migration("0008f_billing_user_indexes") { sql in
        try await sql.create(index: "kindred_billing_transfers_to_user").on("kindred_billing_transfers").column("to_user_id").run()
    }
}
