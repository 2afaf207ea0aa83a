import KindredStore
import SQLKit

extension NotificationsSchema {
    /// Push tokens the dispatcher deleted because a provider rejected them as invalid, counted
    /// per app, transport and UTC day (`day` is the day's start in milliseconds since 1970), for
    /// the admin console's push page. No user id: only counts are kept.
    static let recordTokenPrunes = Migration("notifications_0003_token_prunes") { sql in
        try await sql.create(table: "kindred_push_token_prunes")
            .column("app", type: .text, .notNull)
            .column("transport", type: .text, .notNull)
            .column("day", type: .bigint, .notNull)
            .column("pruned", type: .bigint, .notNull)
            .primaryKey("app", "transport", "day")
            .run()
        try await sql.create(index: "kindred_push_token_prunes_day").on("kindred_push_token_prunes")
            .column("day").run()
    }

    /// Adds `count` pruned tokens of `app` and `transport` to the UTC day of `now` (milliseconds),
    /// inside the caller's transaction.
    static func recordPrunes(app: String, transport: String, count: Int, now: Int64, on sql: any SQLDatabase) async throws {
        let day = now - ((now % 86_400_000) + 86_400_000) % 86_400_000
        try await sql.raw("""
            INSERT INTO kindred_push_token_prunes (app, transport, day, pruned) VALUES (\(bind: app), \(bind: transport), \(bind: day), \(bind: count))
            ON CONFLICT (app, transport, day) DO UPDATE SET pruned = kindred_push_token_prunes.pruned + excluded.pruned
            """).run()
    }
}
