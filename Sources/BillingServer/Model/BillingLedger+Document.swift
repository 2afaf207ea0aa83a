import KindredServerCore
import SQLKit

extension BillingLedger {
    /// Pulse's document of a user from the stored record and plan history; nil when there is no
    /// such account.
    static func document(
        of userID: String, settings: BillingSettings, now: Int64, on sql: any SQLDatabase
    ) async throws -> PulseDocument? {
        guard let account = try await sql.select().columns("app", "created_at").from("kindred_users")
            .where("id", .equal, userID).first()
        else { return nil }
        let app: AppID = try BillingRows.enumValue(account, "app")
        let createdAt = try account.decode(column: "created_at", as: Int64.self) / 1000
        return PulseDocument.make(
            userID: userID, record: try await record(of: userID, on: sql), plans: try await plans(of: userID, on: sql),
            sandboxGrantsAccess: settings.app(app).sandboxGrantsAccess, now: now, accountCreatedAt: createdAt
        )
    }
}
