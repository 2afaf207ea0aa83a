import CloserAPI
import Foundation
import KindredServerCore
import SQLKit

/// A row of `closer_outcomes`: one member's `enc:v1:` answers to one check-in.
struct OutcomeRecord: Sendable, Equatable {
    var coupleID: String
    var userID: String
    var key: String
    var answers: String
    var submittedAt: Int64

    /// The columns `init(row:)` reads.
    static let columns = ["couple_id", "user_id", "day_key", "answers", "submitted_at"]

    init(row: any SQLRow) throws {
        coupleID = try row.decode(column: "couple_id", as: String.self)
        userID = try row.decode(column: "user_id", as: String.self)
        key = try row.decode(column: "day_key", as: String.self)
        answers = try row.decode(column: "answers", as: String.self)
        submittedAt = try row.decode(column: "submitted_at", as: Int64.self)
    }

    /// The API document.
    var document: Components.Schemas.CloserOutcomeEntry {
        .init(userId: userID, answers: answers, submittedAt: Date(millisecondsSince1970: submittedAt))
    }
}
