import Foundation
import SQLKit

/// A row of `closer_days`: one couple's question for one date key.
struct DayRecord: Sendable, Equatable {
    var coupleID: String
    var date: String
    var questionID: String
    var assignedAt: Int64
    var expiresAt: Int64
    var remindAt: Int64?
    var completedAt: Int64?

    static let columns = ["couple_id", "date_key", "question_id", "assigned_at", "expires_at", "remind_at", "completed_at"]

    init(coupleID: String, date: String, questionID: String, assignedAt: Int64, expiresAt: Int64, remindAt: Int64?) {
        self.coupleID = coupleID
        self.date = date
        self.questionID = questionID
        self.assignedAt = assignedAt
        self.expiresAt = expiresAt
        self.remindAt = remindAt
    }

    init(row: any SQLRow) throws {
        coupleID = try row.decode(column: "couple_id", as: String.self)
        date = try row.decode(column: "date_key", as: String.self)
        questionID = try row.decode(column: "question_id", as: String.self)
        assignedAt = try row.decode(column: "assigned_at", as: Int64.self)
        expiresAt = try row.decode(column: "expires_at", as: Int64.self)
        remindAt = try row.decode(column: "remind_at", as: Int64?.self)
        completedAt = try row.decode(column: "completed_at", as: Int64?.self)
    }

    /// The values of one row, in `columns` order.
    var values: [any SQLExpression] {
        [SQLBind(coupleID), SQLBind(date), SQLBind(questionID), SQLBind(assignedAt), SQLBind(expiresAt), SQLBind(remindAt), SQLBind(completedAt)]
    }

    /// Loads one day.
    static func load(coupleID: String, date: String, on sql: any SQLDatabase) async throws -> DayRecord? {
        try await sql.select().columns(columns.map { SQLIdentifier($0) }).from("closer_days")
            .where("couple_id", .equal, coupleID).where("date_key", .equal, date).first().map(DayRecord.init(row:))
    }
}
