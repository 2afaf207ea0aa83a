import KindredStore
import SQLKit

extension NotificationsSchema {
    /// An index on the deliveries' `updated_at`, so the admin console's push page counts the
    /// last 30 days' deliveries with a range scan instead of reading the whole table.
    static let indexDeliveriesByTime = Migration("notifications_0002_deliveries_by_time") { sql in
        try await sql.create(index: "kindred_notification_deliveries_time").on("kindred_notification_deliveries")
            .column("updated_at").run()
    }
}
