import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// Closer's headline numbers on the console overview. Only what an index answers: the couples
/// (a count of `closer_couples` by its primary key). Answers and reveals per day need an index
/// on `closer_answers.created_at`, which Closer's schema does not have yet, so they are not shown.
enum CloserAdminOverview {
    /// The section for `environment`'s database.
    static func section(_ environment: DomainEnvironment) -> AdminOverviewSection {
        let database = environment.database
        return AdminOverviewSection(app: "closer", title: "Closer") { _ in
            let couples = try await database.sql.select()
                .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("closer_couples")
                .first()?.decode(column: "n", as: Int.self) ?? 0
            return [AdminOverviewCount(label: "Couples", value: couples)]
        }
    }
}
