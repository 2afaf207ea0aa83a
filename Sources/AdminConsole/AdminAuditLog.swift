import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// One operator action as the audit log keeps it.
struct AdminAuditEntry: Sendable, Equatable {
    /// The entry's id.
    var id: String
    /// The operator's id.
    var operatorID: String
    /// The operator's e-mail when they acted.
    var operatorEmail: String
    /// What they did (`user.disable`, `job.run`, …).
    var action: String
    /// What they did it to (a user id, a job name, an operator's e-mail, …); empty when nothing.
    var target: String
    /// The outcome, in a sentence.
    var detail: String
    /// When.
    var createdAt: Date
}

/// The operators' append-only audit log (`kindred_admin_audit`): every console action that
/// changes something is recorded with who, what, when and on which target. Nothing updates or
/// deletes a row.
struct AdminAuditLog: Sendable {
    let database: Database
    let clock: any WallClock

    /// Appends one entry.
    func record(operatorID: String, email: String, action: String, target: String, detail: String) async throws {
        try await database.sql.insert(into: "kindred_admin_audit")
            .columns("id", "operator_id", "operator_email", "action", "target", "detail", "created_at")
            .values(
                SQLBind(RandomID.make()), SQLBind(operatorID), SQLBind(email), SQLBind(String(action.prefix(100))),
                SQLBind(String(target.prefix(300))), SQLBind(String(detail.prefix(2000))),
                SQLBind(clock.now().millisecondsSince1970)
            )
            .run()
    }

    /// Entries newest first, `limit` from `offset`, and how many there are in all.
    func page(offset: Int, limit: Int) async throws -> (entries: [AdminAuditEntry], total: Int) {
        let sql = database.sql
        let total = try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from("kindred_admin_audit").first()?.decode(column: "n", as: Int.self) ?? 0
        let entries = try await sql.select()
            .columns("id", "operator_id", "operator_email", "action", "target", "detail", "created_at")
            .from("kindred_admin_audit").orderBy("created_at", .descending).orderBy("id", .descending)
            .limit(limit).offset(offset).all()
            .map { row in
                AdminAuditEntry(
                    id: try row.decode(column: "id", as: String.self),
                    operatorID: try row.decode(column: "operator_id", as: String.self),
                    operatorEmail: try row.decode(column: "operator_email", as: String.self),
                    action: try row.decode(column: "action", as: String.self),
                    target: try row.decode(column: "target", as: String.self),
                    detail: try row.decode(column: "detail", as: String.self),
                    createdAt: Date(millisecondsSince1970: try row.decode(column: "created_at", as: Int64.self))
                )
            }
        return (entries, total)
    }
}
