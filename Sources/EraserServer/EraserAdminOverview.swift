import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// Ex-Eraser's headline numbers on the console overview: analytics events of the last 24 hours
/// by type (index `exeraser_analytics_events_hour`), and all events per day over 30 days.
enum EraserAdminOverview {
    /// The section for `environment`'s database.
    static func section(_ environment: DomainEnvironment) -> AdminOverviewSection {
        let database = environment.database
        return AdminOverviewSection(app: "exeraser", title: "Ex-Eraser") { context in
            let sql = database.sql
            let since = Int64(context.now.timeIntervalSince1970) - 86_400
            let byType = try await sql.select().column("event")
                .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("exeraser_analytics_events")
                .where("occurred_hour", .greaterThanOrEqual, since).groupBy("event").orderBy("event").all()
            let series = try await AdminOverviews.dailySeries(
                sql, table: "exeraser_analytics_events", timeColumn: "occurred_hour", scale: 1000, now: context.now
            )
            var counts = [AdminOverviewCount(label: "Events today", value: series.last ?? 0, series: series)]
            for row in byType {
                counts.append(AdminOverviewCount(
                    label: "Last 24 h · \(try row.decode(column: "event", as: String.self))",
                    value: try row.decode(column: "n", as: Int.self)
                ))
            }
            return counts
        }
    }
}
