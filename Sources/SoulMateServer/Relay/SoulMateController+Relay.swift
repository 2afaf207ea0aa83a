import Foundation
import KindredServerCore
import KindredStore
import SoulMateAPI
import SQLKit

/// The transient relay: an envelope waits for its recipient only until acknowledged (then it is
/// deleted in the acknowledging transaction) or until the cleanup job's cutoff.
extension SoulMateController {
    /// Queues an envelope for the partner; idempotent on its id.
    func send(_ user: AuthenticatedUser, _ body: Components.Schemas.SoulMateEnvelopeCreate) async throws
        -> (duplicate: Bool, id: String)
    {
        guard SoulMateInput.isID(body.id) else { throw KindredError.invalidEnvelope("id must be 1 to 64 of A-Z, a-z, 0-9, '-' and '_'") }
        guard body.ciphertext.utf8.count <= 32_768, let length = SoulMateInput.base64Length(body.ciphertext), length >= 28 else {
            throw KindredError.invalidEnvelope("ciphertext must be standard Base64 of at least 28 bytes, at most 32768 characters")
        }
        guard body.keyVersion >= 1 else { throw KindredError.invalidEnvelope("keyVersion must be at least 1") }
        let sentAt = body.sentAt.millisecondsSince1970
        let now = nowMS
        let userID = user.id
        let settings = settings
        let events = events
        return try await events.publisher.transaction { tx in
            let sql = tx.sql
            // One read: the pair, the sender's key version and any envelope with this id.
            let row = try await sql.first(SoulMateQueries.sendContext.binding(body.id, userID))
            guard let row else { throw KindredError.notPaired }
            guard try row.decode(column: "partner_id", as: String.self) == body.recipientId else { throw KindredError.notPartner }
            if let sender = try row.decode(column: "e_sender", as: String?.self) {
                let recipient = try row.decode(column: "e_recipient", as: String?.self)
                let ciphertext = try row.decode(column: "e_ciphertext", as: String?.self)
                let same = sender == userID && recipient == body.recipientId && ciphertext == body.ciphertext
                guard same else { throw KindredError.messageIDTaken }
                return (true, body.id)
            }
            let version = try row.decode(column: "key_version", as: Int?.self)
            guard version == body.keyVersion else { throw KindredError.keyVersionMismatch(current: version) }
            // The push carries the envelope for the notification extension when it fits; the
            // realtime event only the metadata (events are kept a while, envelopes must not be).
            let meta = [
                "messageId": body.id, "senderId": userID, "keyVersion": String(body.keyVersion),
                "sentAt": String(sentAt),
            ]
            var pushData = meta
            let carries = body.ciphertext.utf8.count <= settings.pushEnvelopeLimit
            if carries { pushData["envelope"] = body.ciphertext }
            let ids = try await events.emit(
                "soulmate.message", data: meta, to: [body.recipientId],
                push: .init(
                    type: .soulmateMessage, title: "SoulMate", body: "New message", data: pushData,
                    collapseID: nil, mutableContent: carries
                ),
                pushTo: [body.recipientId], on: tx
            )
            try await sql.insert(into: "soulmate_envelopes")
                .columns("id", "sender_id", "recipient_id", "sent_at", "key_version", "ciphertext", "received_at", "notification_id")
                .values(
                    SQLBind(body.id), SQLBind(userID), SQLBind(body.recipientId), SQLBind(sentAt), SQLBind(body.keyVersion),
                    SQLBind(body.ciphertext), SQLBind(now), SQLBind(carries ? ids.first : nil)
                )
                .run()
            return (false, body.id)
        }
    }

    /// One page of the caller's pending envelopes, oldest first.
    func inbox(_ user: AuthenticatedUser, cursor: String?, limit: Int?) async throws -> Components.Schemas.SoulMateEnvelopePage {
        let limit = limit ?? 100
        guard (1...500).contains(limit) else { throw KindredError.badRequest("limit must be 1 to 500") }
        var after: (Int64, String)?
        if let cursor {
            let parts = cursor.split(separator: ".", maxSplits: 1)
            guard parts.count == 2, let at = Int64(parts[0]), SoulMateInput.isID(String(parts[1])) else {
                throw KindredError.badRequest("malformed cursor")
            }
            after = (at, String(parts[1]))
        }
        let page = after.map { SoulMateQueries.inboxPage.binding(user.id, $0.0, $0.0, $0.1, limit + 1) }
        let rows = try await database.sql.all(page ?? SoulMateQueries.inboxFirstPage.binding(user.id, limit + 1))
        var envelopes: [Components.Schemas.SoulMateEnvelope] = []
        var last: (Int64, String)?
        for row in rows.prefix(limit) {
            let received = try row.decode(column: "received_at", as: Int64.self)
            let id = try row.decode(column: "id", as: String.self)
            envelopes.append(
                .init(
                    id: id, senderId: try row.decode(column: "sender_id", as: String.self),
                    recipientId: try row.decode(column: "recipient_id", as: String.self),
                    sentAt: Self.date(try row.decode(column: "sent_at", as: Int64.self)),
                    keyVersion: try row.decode(column: "key_version", as: Int.self),
                    ciphertext: try row.decode(column: "ciphertext", as: String.self), receivedAt: Self.date(received)
                )
            )
            last = (received, id)
        }
        let next = rows.count > limit ? last.map { "\($0.0).\($0.1)" } : nil
        return .init(envelopes: envelopes, nextCursor: next)
    }

    /// Deletes the acknowledged envelopes addressed to the caller (and any push copy of them).
    func acknowledge(_ user: AuthenticatedUser, ids: [String]) async throws -> Int {
        guard !ids.isEmpty, ids.count <= 500 else { throw KindredError.invalidAck("ids must hold 1 to 500 message ids") }
        guard ids.allSatisfy(SoulMateInput.isID) else { throw KindredError.invalidAck("a message id is 1 to 64 of A-Z, a-z, 0-9, '-' and '_'") }
        let unique = Array(Set(ids))
        let userID = user.id
        return try await database.transaction { sql in
            let deleted = try await sql.delete(from: "soulmate_envelopes")
                .where("recipient_id", .equal, userID).where("id", .in, unique)
                .returning("notification_id").all()
            try await NotificationOutbox.redactData(
                of: try deleted.compactMap { try $0.decode(column: "notification_id", as: String?.self) }, on: sql
            )
            return deleted.count
        }
    }

    /// Deletes up to `limit` envelopes received before `cutoff` (the cleanup job).
    static func deleteExpired(before cutoff: Int64, limit: Int, database: Database) async throws -> Int {
        try await database.transaction { sql in
            let rows = try await sql.select().columns("id", "notification_id").from("soulmate_envelopes")
                .where("received_at", .lessThan, cutoff).orderBy("received_at").limit(limit).all()
            guard !rows.isEmpty else { return 0 }
            let ids = try rows.map { try $0.decode(column: "id", as: String.self) }
            try await NotificationOutbox.redactData(of: try rows.compactMap { try $0.decode(column: "notification_id", as: String?.self) }, on: sql)
            try await sql.delete(from: "soulmate_envelopes").where("id", .in, ids).run()
            return ids.count
        }
    }
}
