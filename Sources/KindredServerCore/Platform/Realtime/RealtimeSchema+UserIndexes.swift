import KindredStore
import SQLKit

extension RealtimeSchema {
    /// The console's user page counts a user's rows in every table the user-data registry lists
    /// (`AdminAccounts.dataSummary`), and account deletion deletes them by the same column: these
    /// indexes make each a range read instead of a scan of the table.
    static let userIndexes = Migration("realtime_0002_user_indexes") { sql in
        try await sql.create(index: "kindred_realtime_tickets_user").on("kindred_realtime_tickets").column("user_id").run()
    }
}
