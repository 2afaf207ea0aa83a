import KindredStore
import SQLKit

extension NotificationsSchema {
    /// The console's user page counts a user's rows in every table the user-data registry lists
    /// (`AdminAccounts.dataSummary`), and account deletion deletes them by the same column: these
    /// indexes make each a range read instead of a scan of the table.
    static let userIndexes = Migration("notifications_0004_user_indexes") { sql in
        try await sql.create(index: "kindred_notification_deliveries_user").on("kindred_notification_deliveries").column("user_id").run()
    }
}
