import Foundation
import KindredAPI
import KindredStore
import SQLKit

/// A row of `kindred_notification_settings`.
struct NotificationSettingsRecord: Sendable, Equatable {
    var userID: String
    var timeZone: String?
    var quietStart: Int?
    var quietEnd: Int?
    var optOut: [String]
    var updatedAt: Int64

    /// Written once (`StatementText`): every queued notification reads its user's settings.
    private static let loadStatement = StatementText(
        "SELECT time_zone, quiet_start, quiet_end, opt_out, updated_at FROM kindred_notification_settings WHERE user_id = ?"
    )

    /// The user's row, or nil.
    static func load(userID: String, on sql: any SQLDatabase) async throws -> NotificationSettingsRecord? {
        guard let row = try await sql.first(Self.loadStatement.binding(userID)) else { return nil }
        let optOutJSON = try row.decode(column: "opt_out", as: String.self)
        return NotificationSettingsRecord(
            userID: userID,
            timeZone: try row.decode(column: "time_zone", as: String?.self),
            quietStart: try row.decode(column: "quiet_start", as: Int?.self),
            quietEnd: try row.decode(column: "quiet_end", as: Int?.self),
            optOut: Self.optOut(optOutJSON),
            updatedAt: try row.decode(column: "updated_at", as: Int64.self)
        )
    }

    /// The opted-out types stored as a JSON array (`[]`, most often, needs no decoder).
    static func optOut(_ json: String) -> [String] {
        json == "[]" ? [] : (try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? []
    }

    /// The settings in a row that joined `kindred_notification_settings` with `prefix` on its
    /// columns (`<prefix>time_zone`, …); nil when the join found none.
    static func decode(joined row: any SQLRow, prefix: String, userID: String) throws -> NotificationSettingsRecord? {
        guard let optOutJSON = try row.decode(column: prefix + "opt_out", as: String?.self) else { return nil }
        return NotificationSettingsRecord(
            userID: userID,
            timeZone: try row.decode(column: prefix + "time_zone", as: String?.self),
            quietStart: try row.decode(column: prefix + "quiet_start", as: Int?.self),
            quietEnd: try row.decode(column: prefix + "quiet_end", as: Int?.self),
            optOut: Self.optOut(optOutJSON),
            updatedAt: try row.decode(column: prefix + "updated_at", as: Int64.self)
        )
    }

    /// Inserts or replaces the row.
    func save(on sql: any SQLDatabase) async throws {
        let optOutJSON = String(decoding: try JSONEncoder().encode(optOut), as: UTF8.self)
        try await sql.insert(into: "kindred_notification_settings")
            .columns("user_id", "time_zone", "quiet_start", "quiet_end", "opt_out", "updated_at")
            .values(SQLBind(userID), SQLBind(timeZone), SQLBind(quietStart), SQLBind(quietEnd), SQLBind(optOutJSON), SQLBind(updatedAt))
            .onConflict(with: ["user_id"]) { conflict in
                conflict.set(excludedValueOf: "time_zone").set(excludedValueOf: "quiet_start")
                    .set(excludedValueOf: "quiet_end").set(excludedValueOf: "opt_out").set(excludedValueOf: "updated_at")
            }
            .run()
    }

    /// The quiet window, when one is set; read in `timeZone`, else `fallbackZone`, else UTC.
    func quietHours(fallbackZone: String?) -> QuietHours? {
        guard let quietStart, let quietEnd else { return nil }
        let zone = (timeZone ?? fallbackZone).flatMap(TimeZone.init(identifier:)) ?? TimeZone(secondsFromGMT: 0) ?? .current
        return QuietHours(start: quietStart, end: quietEnd, timeZone: zone)
    }

    /// The API form.
    var representation: Components.Schemas.NotificationSettings {
        .init(
            timeZone: timeZone,
            quietHours: quietStart.flatMap { start in
                quietEnd.map { .init(start: QuietHours.text(start), end: QuietHours.text($0)) }
            },
            optOut: optOut
        )
    }
}
