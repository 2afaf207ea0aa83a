import KindredServerCore
import KindredStore
import Foundation
import CloserAPI
import SQLKit

/// A row of `closer_answers`.
struct AnswerRecord: Sendable, Equatable {
    var coupleID: String
    var date: String
    var userID: String
    var questionID: String
    var schemaVersion: Int
    var text: String?
    var encryptedText: String?
    var encryptedPayload: String?
    var commitmentHash: String?
    var commitmentSeal: String?
    var answerKeyReleased: Bool
    var isRevealed: Bool
    var migratedAt: Int64?
    var createdAt: Int64
    var updatedAt: Int64

    static let columns = [
        "couple_id", "date_key", "user_id", "question_id", "schema_version", "text", "encrypted_text", "encrypted_payload",
        "commitment_hash", "commitment_seal", "answer_key_released", "is_revealed", "migrated_at", "created_at", "updated_at",
    ]

    init(
        coupleID: String, date: String, userID: String, questionID: String, body: Components.Schemas.CloserAnswerCreate, now: Int64
    ) {
        self.coupleID = coupleID
        self.date = date
        self.userID = userID
        self.questionID = questionID
        schemaVersion = body.schemaVersion.rawValue
        text = body.text
        encryptedText = body.encryptedText
        encryptedPayload = body.encryptedPayload
        commitmentHash = body.commitmentHash
        commitmentSeal = body.commitmentSeal
        answerKeyReleased = false
        isRevealed = false
        createdAt = now
        updatedAt = now
    }

    /// Reads a row whose columns are named as in `columns`, each after `prefix` (a joined query's alias).
    init(row: any SQLRow, prefix: String = "") throws {
        coupleID = try row.decode(column: prefix + "couple_id", as: String.self)
        date = try row.decode(column: prefix + "date_key", as: String.self)
        userID = try row.decode(column: prefix + "user_id", as: String.self)
        questionID = try row.decode(column: prefix + "question_id", as: String.self)
        schemaVersion = try row.decode(column: prefix + "schema_version", as: Int.self)
        text = try row.decode(column: prefix + "text", as: String?.self)
        encryptedText = try row.decode(column: prefix + "encrypted_text", as: String?.self)
        encryptedPayload = try row.decode(column: prefix + "encrypted_payload", as: String?.self)
        commitmentHash = try row.decode(column: prefix + "commitment_hash", as: String?.self)
        commitmentSeal = try row.decode(column: prefix + "commitment_seal", as: String?.self)
        answerKeyReleased = try row.decode(column: prefix + "answer_key_released", as: Bool.self)
        isRevealed = try row.decode(column: prefix + "is_revealed", as: Bool.self)
        migratedAt = try row.decode(column: prefix + "migrated_at", as: Int64?.self)
        createdAt = try row.decode(column: prefix + "created_at", as: Int64.self)
        updatedAt = try row.decode(column: prefix + "updated_at", as: Int64.self)
    }

    /// The values of one row, in `columns` order, as binds.
    var binds: [any Encodable & Sendable] {
        [
            coupleID, date, userID, questionID, schemaVersion, text, encryptedText, encryptedPayload, commitmentHash,
            commitmentSeal, answerKeyReleased, isRevealed, migratedAt, createdAt, updatedAt,
        ]
    }

    /// Inserts the row unless the author already answered that date.
    /// - Returns: false when an answer was there (nothing written).
    func insertUnlessPresent(on sql: any SQLDatabase) async throws -> Bool {
        // Written once (`CloserQueries`): SQLKit's builders cost more to serialize than SQLite takes to run it.
        let inserted = try await sql.all(CloserQueries.insertAnswerUnlessPresent.binding(binds))
        return !inserted.isEmpty
    }

    var values: [any SQLExpression] {
        [
            SQLBind(coupleID), SQLBind(date), SQLBind(userID), SQLBind(questionID), SQLBind(schemaVersion), SQLBind(text),
            SQLBind(encryptedText), SQLBind(encryptedPayload), SQLBind(commitmentHash), SQLBind(commitmentSeal),
            SQLBind(answerKeyReleased), SQLBind(isRevealed), SQLBind(migratedAt), SQLBind(createdAt), SQLBind(updatedAt),
        ]
    }

    /// The answers of the given days of one couple, grouped by date key.
    static func load(coupleID: String, dates: [String], on sql: any SQLDatabase) async throws -> [String: [AnswerRecord]] {
        guard !dates.isEmpty else { return [:] }
        if dates.count == 1 {
            // One date (a request about one day): the statement written once.
            let rows = try await sql.all(CloserQueries.answersOfDay.binding(coupleID, dates[0]))
            return rows.isEmpty ? [:] : [dates[0]: try rows.map { try AnswerRecord(row: $0) }]
        }
        let rows = try await sql.select().columns(columns.map { SQLIdentifier($0) }).from("closer_answers")
            .where("couple_id", .equal, coupleID).where("date_key", .in, dates).orderBy("created_at").all()
        return Dictionary(grouping: try rows.map { try AnswerRecord(row: $0) }, by: \.date)
    }

    /// The API document as `viewer` may see it: the content only for its author, or once both answered.
    func api(viewer: String, bothAnswered: Bool) -> Components.Schemas.CloserAnswer {
        let visible = viewer == userID || bothAnswered
        return Components.Schemas.CloserAnswer(
            coupleId: coupleID, date: date, questionId: questionID, userId: userID,
            schemaVersion: .init(rawValue: schemaVersion) ?? ._3,
            text: visible ? text : nil, encryptedText: visible ? encryptedText : nil,
            encryptedPayload: visible ? encryptedPayload : nil, commitmentHash: visible ? commitmentHash : nil,
            commitmentSeal: visible ? commitmentSeal : nil,
            answerKeyReleased: schemaVersion == 3 ? answerKeyReleased : nil, isRevealed: schemaVersion == 3 ? isRevealed : nil,
            contentWithheld: !visible, migratedAt: migratedAt.map(Date.init(millisecondsSince1970:)),
            createdAt: Date(millisecondsSince1970: createdAt), updatedAt: Date(millisecondsSince1970: updatedAt)
        )
    }
}
