import KindredServerCore
import KindredStore
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

    /// Reads a row whose columns are named as in `columns`, each after `prefix` (a joined query's alias).
    init(row: any SQLRow, prefix: String = "") throws {
        coupleID = try row.decode(column: prefix + "couple_id", as: String.self)
        date = try row.decode(column: prefix + "date_key", as: String.self)
        questionID = try row.decode(column: prefix + "question_id", as: String.self)
        assignedAt = try row.decode(column: prefix + "assigned_at", as: Int64.self)
        expiresAt = try row.decode(column: prefix + "expires_at", as: Int64.self)
        remindAt = try row.decode(column: prefix + "remind_at", as: Int64?.self)
        completedAt = try row.decode(column: prefix + "completed_at", as: Int64?.self)
    }

    /// The values of one row, in `columns` order.
    var values: [any SQLExpression] {
        [SQLBind(coupleID), SQLBind(date), SQLBind(questionID), SQLBind(assignedAt), SQLBind(expiresAt), SQLBind(remindAt), SQLBind(completedAt)]
    }

    /// Loads one day.
    static func load(coupleID: String, date: String, on sql: any SQLDatabase) async throws -> DayRecord? {
        // Written once (`CloserQueries`): it runs in most Closer requests.
        try await sql.first(CloserQueries.day.binding(coupleID, date)).map { try DayRecord(row: $0) }
    }
}
