import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// Closer's headline numbers on the console overview, each from an index: couples (the primary
/// key of `closer_couples`), answers written today (`closer_answers_created`) and dates revealed
/// today — both partners answered, so both can open each other's answer
/// (`closer_days_completed`) — the last two with their 30 UTC days.
enum CloserAdminOverview {
    /// The section for `environment`'s database.
    static func section(_ environment: DomainEnvironment) -> AdminOverviewSection {
        let database = environment.database
        return AdminOverviewSection(app: "closer", title: "Closer") { context in
            let sql = database.sql
            let couples = try await sql.select()
                .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("closer_couples")
                .first()?.decode(column: "n", as: Int.self) ?? 0
            let answers = try await AdminOverviews.dailySeries(sql, table: "closer_answers", timeColumn: "created_at", now: context.now)
            let reveals = try await AdminOverviews.dailySeries(sql, table: "closer_days", timeColumn: "completed_at", now: context.now)
            return [
                AdminOverviewCount(label: "Couples", value: couples),
                AdminOverviewCount(label: "Answers today", value: answers.last ?? 0, series: answers),
                AdminOverviewCount(label: "Reveals today", value: reveals.last ?? 0, series: reveals),
            ]
        }
    }
}
