import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// StreakSync's headline numbers on the console overview: scores published for today (UTC
/// date, index `streaksync_scores_date`) with their last 30 days, and friendships (by primary key).
enum StreakAdminOverview {
    /// The section for `environment`'s database.
    static func section(_ environment: DomainEnvironment) -> AdminOverviewSection {
        let database = environment.database
        return AdminOverviewSection(app: "streaksync", title: "StreakSync") { context in
            let sql = database.sql
            let days = AdminOverviews.dayStarts(endingAt: context.now).map { start in
                Date(millisecondsSince1970: start).formatted(.iso8601.year().month().day())
            }
            var byDay: [String: Int] = [:]
            if let first = days.first {
                for row in try await sql.select().column("local_date")
                    .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("streaksync_scores")
                    .where("local_date", .greaterThanOrEqual, first).groupBy("local_date").all() {
                    byDay[try row.decode(column: "local_date", as: String.self)] = try row.decode(column: "n", as: Int.self)
                }
            }
            let series = days.map { byDay[$0] ?? 0 }
            let friendships = try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                .from("streaksync_friendships").first()?.decode(column: "n", as: Int.self) ?? 0
            return [
                AdminOverviewCount(label: "Scores today", value: series.last ?? 0, series: series),
                AdminOverviewCount(label: "Friendships (accepted or pending)", value: friendships),
            ]
        }
    }
}
