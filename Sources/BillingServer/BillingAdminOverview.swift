import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// Billing's headline numbers on the console overview: active subscriptions per app and
/// platform, and expirations due in the next seven days. Both read the index
/// `kindred_billing_subscriptions_status` (app, status, latest_expiration).
enum BillingAdminOverview {
    /// The section for `environment`'s database.
    static func section(_ environment: DomainEnvironment) -> AdminOverviewSection {
        let database = environment.database
        return AdminOverviewSection(app: "billing", title: "Subscriptions") { context in
            let now = Int64(context.now.timeIntervalSince1970)
            let week = now + 7 * 86_400
            var counts: [AdminOverviewCount] = []
            for app in context.apps {
                let rows = try await database.sql.select().column("platform")
                    .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                    .from("kindred_billing_subscriptions")
                    .where("app", .equal, app).where("status", .equal, "active")
                    .where("latest_expiration", .greaterThan, now)
                    .groupBy("platform").orderBy("platform").all()
                for row in rows {
                    let platform = try row.decode(column: "platform", as: String?.self) ?? "unknown"
                    counts.append(AdminOverviewCount(
                        label: "\(app) · active · \(platform)", value: try row.decode(column: "n", as: Int.self)
                    ))
                }
                let due = try await database.sql.select()
                    .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                    .from("kindred_billing_subscriptions")
                    .where("app", .equal, app).where("status", .equal, "active")
                    .where("latest_expiration", .greaterThan, now).where("latest_expiration", .lessThanOrEqual, week)
                    .first()?.decode(column: "n", as: Int.self) ?? 0
                if !rows.isEmpty || due > 0 {
                    counts.append(AdminOverviewCount(label: "\(app) · expiring within 7 days", value: due))
                }
            }
            return counts
        }
    }
}
