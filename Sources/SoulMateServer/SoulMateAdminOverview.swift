import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// SoulMate's headline numbers on the console overview: pairs (by primary key), envelopes
/// waiting and the age of the oldest (index `soulmate_envelopes_age` on `received_at`).
enum SoulMateAdminOverview {
    /// The section for `environment`'s database.
    static func section(_ environment: DomainEnvironment) -> AdminOverviewSection {
        let database = environment.database
        return AdminOverviewSection(app: "soulmate", title: "SoulMate") { context in
            let sql = database.sql
            let pairs = try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                .from("soulmate_pairs").first()?.decode(column: "n", as: Int.self) ?? 0
            let waiting = try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                .column(SQLFunction("MIN", args: SQLIdentifier("received_at")), as: "oldest")
                .from("soulmate_envelopes").first()
            let count = try waiting?.decode(column: "n", as: Int.self) ?? 0
            let oldest = try waiting?.decode(column: "oldest", as: Int64?.self)
            let ageMinutes = oldest.map { max(0, Int((context.now.millisecondsSince1970 - $0) / 60_000)) } ?? 0
            return [
                AdminOverviewCount(label: "Pairs", value: pairs),
                AdminOverviewCount(label: "Envelopes waiting", value: count),
                AdminOverviewCount(label: "Oldest waiting (minutes)", value: ageMinutes),
            ]
        }
    }
}
