import KindredServerCore
import Foundation
import CloserAPI
import KindredStore
import SQLKit

/// Threads: sealed messages with the answers' shape and release-key flow, without date or
/// reveal flag (`isSealedThreadAnswerCreate` / `isSealedThreadAnswerUpdate`).
extension CloserController {
    /// A thread row: id, question, creator, creation time.
    struct ThreadRow: Sendable {
        var id: String
        var coupleID: String
        var questionID: String
        var createdBy: String
        var createdAt: Int64
    }

    /// Starts a thread on a catalog question.
    func createThread(_ user: AuthenticatedUser, coupleID: String, questionID: String) async throws -> Components.Schemas.CloserThread {
        guard catalog.questionsByID[questionID] != nil else { throw KindredError.questionNotFound }
        let callerID = user.user.id
        let now = nowMS
        let thread = ThreadRow(id: RandomID.make(), coupleID: coupleID, questionID: questionID, createdBy: callerID, createdAt: now)
        try await database.transaction { sql in
            _ = try await Self.couple(coupleID, member: callerID, on: sql)
            try await sql.insert(into: "closer_threads").columns("id", "couple_id", "question_id", "created_by", "created_at")
                .values(SQLBind(thread.id), SQLBind(coupleID), SQLBind(questionID), SQLBind(callerID), SQLBind(now)).run()
        }
        return try await threadDocuments([thread], viewer: callerID, on: database.sql)[0]
    }

    /// The couple's threads, newest first.
    func threads(_ user: AuthenticatedUser, coupleID: String, limit: Int?, cursor: String?) async throws -> Components.Schemas.CloserThreadPage {
        let limit = try Self.pageLimit(limit)
        let sql = database.sql
        _ = try await Self.couple(coupleID, member: user.user.id, on: sql)
        var query = sql.select().columns("id", "couple_id", "question_id", "created_by", "created_at").from("closer_threads")
            .where("couple_id", .equal, coupleID)
        if let cursor {
            let parts = cursor.split(separator: "_", maxSplits: 1)
            guard parts.count == 2, let time = Int64(parts[0]) else { throw KindredError.badRequest("cursor is not one this server issued") }
            let id = String(parts[1])
            query = query.where { $0.where("created_at", .lessThan, time).orWhere { $0.where("created_at", .equal, time).where("id", .lessThan, id) } }
        }
        let rows = try await query.orderBy("created_at", .descending).orderBy("id", .descending).limit(limit + 1).all()
        var threads = try rows.map(Self.threadRow)
        let more = threads.count > limit
        if more { threads.removeLast() }
        let next = more ? threads.last.map { "\($0.createdAt)_\($0.id)" } : nil
        return .init(threads: try await threadDocuments(threads, viewer: user.user.id, on: sql), nextCursor: next)
    }

    /// One thread.
    func thread(_ user: AuthenticatedUser, coupleID: String, threadID: String) async throws -> Components.Schemas.CloserThread {
        let sql = database.sql
        _ = try await Self.couple(coupleID, member: user.user.id, on: sql)
        let thread = try await Self.thread(threadID, coupleID: coupleID, on: sql)
        return try await threadDocuments([thread], viewer: user.user.id, on: sql)[0]
    }

    /// Posts the caller's sealed message (once).
    func createThreadMessage(
        _ user: AuthenticatedUser, coupleID: String, threadID: String, userID: String, body: Components.Schemas.CloserThreadMessageCreate
    ) async throws -> Components.Schemas.CloserThreadMessage {
        let callerID = user.user.id
        let now = nowMS
        let events = self.events
        return try await events.publisher.transaction { tx in
            let sql = tx.sql
            let couple = try await Self.couple(coupleID, member: callerID, on: sql)
            _ = try await Self.thread(threadID, coupleID: coupleID, on: sql)
            guard userID == callerID else { throw KindredError.notOwner }
            if body.answerKeyReleased == true { throw KindredError.invalidMessage("a message is created with answerKeyReleased false") }
            if let problem = AnswerShape.sealed(payload: body.encryptedPayload, hash: body.commitmentHash, seal: body.commitmentSeal) {
                throw KindredError.invalidMessage(problem)
            }
            let inserted = try await sql.insert(into: "closer_thread_messages")
                .columns(
                    "thread_id", "user_id", "schema_version", "encrypted_payload", "commitment_hash", "commitment_seal",
                    "answer_key_released", "created_at", "updated_at"
                )
                .values(
                    SQLBind(threadID), SQLBind(callerID), SQLBind(3), SQLBind(body.encryptedPayload), SQLBind(body.commitmentHash),
                    SQLBind(body.commitmentSeal), SQLBind(false), SQLBind(now), SQLBind(now)
                )
                .ignoringConflicts().returning("user_id").all()
            guard !inserted.isEmpty else { throw KindredError.messageExists }
            try await events.emit(
                .init(
                    type: "closer.thread_message", notification: .closerThreadMessage, title: "New thread message",
                    body: "Your partner wrote in a thread.", data: ["threadId": threadID, "userId": callerID]
                ),
                coupleID: coupleID, to: couple.partner(of: callerID), on: tx
            )
            let messages = try await Self.messages(of: [threadID], on: sql)[threadID] ?? []
            return try Self.messageDocument(messages.first { $0.userID == callerID }, viewer: callerID, both: messages.count >= 2)
        }
    }

    /// Marks the caller's message key released (false → true only).
    func updateThreadMessage(
        _ user: AuthenticatedUser, coupleID: String, threadID: String, userID: String, released: Bool
    ) async throws -> Components.Schemas.CloserThreadMessage {
        let callerID = user.user.id
        let now = nowMS
        return try await database.transaction { sql in
            _ = try await Self.couple(coupleID, member: callerID, on: sql)
            _ = try await Self.thread(threadID, coupleID: coupleID, on: sql)
            guard userID == callerID else { throw KindredError.notOwner }
            let messages = try await Self.messages(of: [threadID], on: sql)[threadID] ?? []
            guard var message = messages.first(where: { $0.userID == callerID }) else { throw KindredError.messageNotFound }
            if message.answerKeyReleased, !released { throw KindredError.revealIrreversible }
            message.answerKeyReleased = released
            message.updatedAt = now
            try await sql.update("closer_thread_messages").set("answer_key_released", to: released).set("updated_at", to: now)
                .where("thread_id", .equal, threadID).where("user_id", .equal, callerID).run()
            return try Self.messageDocument(message, viewer: callerID, both: messages.count >= 2)
        }
    }

    /// The thread `id` of the couple, or `thread_not_found`.
    static func thread(_ id: String, coupleID: String, on sql: any SQLDatabase) async throws -> ThreadRow {
        let row = try await sql.select().columns("id", "couple_id", "question_id", "created_by", "created_at").from("closer_threads")
            .where("id", .equal, id).where("couple_id", .equal, coupleID).first()
        guard let row else { throw KindredError.threadNotFound }
        return try threadRow(row)
    }

    private static func threadRow(_ row: any SQLRow) throws -> ThreadRow {
        ThreadRow(
            id: try row.decode(column: "id", as: String.self), coupleID: try row.decode(column: "couple_id", as: String.self),
            questionID: try row.decode(column: "question_id", as: String.self), createdBy: try row.decode(column: "created_by", as: String.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self)
        )
    }

    /// A stored thread message.
    struct MessageRow: Sendable {
        var threadID: String
        var userID: String
        var encryptedPayload: String
        var commitmentHash: String
        var commitmentSeal: String
        var answerKeyReleased: Bool
        var createdAt: Int64
        var updatedAt: Int64
    }

    private static func messages(of threadIDs: [String], on sql: any SQLDatabase) async throws -> [String: [MessageRow]] {
        guard !threadIDs.isEmpty else { return [:] }
        let rows = try await sql.select()
            .columns("thread_id", "user_id", "encrypted_payload", "commitment_hash", "commitment_seal", "answer_key_released", "created_at", "updated_at")
            .from("closer_thread_messages").where("thread_id", .in, threadIDs).orderBy("created_at").all()
        let messages = try rows.map { row in
            MessageRow(
                threadID: try row.decode(column: "thread_id", as: String.self), userID: try row.decode(column: "user_id", as: String.self),
                encryptedPayload: try row.decode(column: "encrypted_payload", as: String.self),
                commitmentHash: try row.decode(column: "commitment_hash", as: String.self),
                commitmentSeal: try row.decode(column: "commitment_seal", as: String.self),
                answerKeyReleased: try row.decode(column: "answer_key_released", as: Bool.self),
                createdAt: try row.decode(column: "created_at", as: Int64.self), updatedAt: try row.decode(column: "updated_at", as: Int64.self)
            )
        }
        return Dictionary(grouping: messages, by: \.threadID)
    }

    private static func messageDocument(_ message: MessageRow?, viewer: String, both: Bool) throws -> Components.Schemas.CloserThreadMessage {
        guard let message else { throw KindredError.messageNotFound }
        let visible = message.userID == viewer || both
        return Components.Schemas.CloserThreadMessage(
            threadId: message.threadID, userId: message.userID, schemaVersion: ._3,
            encryptedPayload: visible ? message.encryptedPayload : nil, commitmentHash: visible ? message.commitmentHash : nil,
            commitmentSeal: visible ? message.commitmentSeal : nil, answerKeyReleased: message.answerKeyReleased,
            contentWithheld: !visible, createdAt: Date(millisecondsSince1970: message.createdAt),
            updatedAt: Date(millisecondsSince1970: message.updatedAt)
        )
    }

    private func threadDocuments(_ threads: [ThreadRow], viewer: String, on sql: any SQLDatabase) async throws -> [Components.Schemas.CloserThread] {
        let messages = try await Self.messages(of: threads.map(\.id), on: sql)
        return try threads.map { thread in
            let given = messages[thread.id] ?? []
            return Components.Schemas.CloserThread(
                id: thread.id, coupleId: thread.coupleID, questionId: thread.questionID,
                question: catalog.questionsByID[thread.questionID].map { document($0) },
                createdAt: Date(millisecondsSince1970: thread.createdAt), createdByUserId: thread.createdBy,
                messages: try given.map { try Self.messageDocument($0, viewer: viewer, both: given.count >= 2) }
            )
        }
    }
}
