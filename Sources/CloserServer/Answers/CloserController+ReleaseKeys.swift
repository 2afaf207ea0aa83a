import KindredServerCore
import Foundation
import CloserAPI
import KindredStore
import SQLKit

/// Per-device release keys of sealed answers and thread messages: created only by the author,
/// only once both have written, one `keybox:v1:` per recipient device (the partner's devices and
/// the author's own other devices), readable only by the named recipient.
extension CloserController {
    /// What a set of release keys belongs to.
    enum ReleaseScope: Sendable {
        /// A daily answer of a date.
        case day(String)
        /// A thread message.
        case thread(String)

        var key: String {
            switch self {
            case .day(let date): "day:\(date)"
            case .thread(let id): "thread:\(id)"
            }
        }
    }

    /// Stores the caller's keyboxes for its answer or message in `scope`.
    func createReleaseKeys(
        _ user: AuthenticatedUser, coupleID: String, scope: ReleaseScope, authorID: String,
        upload: Components.Schemas.CloserReleaseKeysUpload
    ) async throws -> Components.Schemas.CloserReleaseKeyList {
        let callerID = user.user.id
        let now = nowMS
        let events = self.events
        return try await events.publisher.transaction { tx in
            let sql = tx.sql
            let couple = try await Self.couple(coupleID, member: callerID, on: sql)
            guard authorID == callerID else { throw KindredError.notOwner }
            let partner = couple.partner(of: callerID)
            try await Self.requireBothSealed(scope, couple: couple, author: callerID, on: sql)
            guard !upload.keys.isEmpty, upload.keys.count <= 20 else { throw KindredError.invalidReleaseKey("send 1–20 keys") }
            if let sender = upload.senderDeviceId, !CloserShapes.isDeviceID(sender) {
                throw KindredError.invalidReleaseKey("senderDeviceId is malformed")
            }
            if upload.isRevealed != nil, case .thread = scope {
                throw KindredError.invalidReleaseKey("a thread message has no reveal flag: leave isRevealed out")
            }
            let registered = try await Self.devices(of: partner, on: sql) + Self.devices(of: callerID, on: sql)
            let devices = Dictionary(grouping: registered, by: \.deviceId).mapValues { Set($0.map(\.userId)) }
            // The caller's keys already in this scope, by recipient and device (one read, not one per key).
            let existingRows = try await sql.all(CloserQueries.releaseKeySlots.binding(coupleID, scope.key, callerID))
            var existing: [String: String] = [:]
            for row in existingRows {
                let slot = try row.decode(column: "recipient_id", as: String.self) + "|"
                    + row.decode(column: "recipient_device_id", as: String.self)
                existing[slot] = try row.decode(column: "encrypted_answer_key", as: String.self)
            }
            var seen = Set<String>()
            var newForPartner = false
            var fresh: [[any Encodable & Sendable]] = []
            for key in upload.keys {
                guard CloserShapes.isDeviceID(key.recipientDeviceId) else { throw KindredError.invalidReleaseKey("recipientDeviceId is malformed") }
                if let problem = CloserShapes.problem(key.encryptedAnswerKey, .keybox, field: "encryptedAnswerKey") {
                    throw KindredError.invalidReleaseKey(problem)
                }
                let owners = devices[key.recipientDeviceId] ?? []
                let recipient: String
                if let named = key.recipientUserId {
                    guard owners.contains(named) else {
                        throw KindredError.invalidReleaseKey("device \(key.recipientDeviceId) is not a registered device of the partner or of you")
                    }
                    recipient = named
                } else if owners.count == 1, let only = owners.first {
                    recipient = only
                } else {
                    throw KindredError.invalidReleaseKey(
                        owners.isEmpty ? "device \(key.recipientDeviceId) is not a registered device of the partner or of you"
                            : "both of you have a device \(key.recipientDeviceId): name recipientUserId"
                    )
                }
                guard seen.insert(recipient + "|" + key.recipientDeviceId).inserted else {
                    throw KindredError.invalidReleaseKey("device \(key.recipientDeviceId) appears twice")
                }
                if let stored = existing[recipient + "|" + key.recipientDeviceId] {
                    guard stored == key.encryptedAnswerKey else { throw KindredError.releaseKeyExists }
                    continue
                }
                fresh.append([coupleID, scope.key, callerID, recipient, key.recipientDeviceId, key.encryptedAnswerKey, now])
                if recipient == partner { newForPartner = true }
            }
            if !fresh.isEmpty {
                // One multi-row insert for the whole upload.
                var insert: SQLQueryString = """
                    INSERT INTO closer_release_keys \
                    (couple_id, scope, user_id, recipient_id, recipient_device_id, encrypted_answer_key, created_at) VALUES 
                    """
                for (index, row) in fresh.enumerated() {
                    insert.appendLiteral(index == 0 ? "(" : ", (")
                    insert.appendInterpolation(binds: row)
                    insert.appendLiteral(")")
                }
                try await sql.raw(insert).run()
            }
            try await Self.markReleased(scope, coupleID: coupleID, author: callerID, revealed: upload.isRevealed == true, now: now, on: sql)
            if newForPartner {
                try await events.emit(
                    .init(
                        type: "closer.keys_released", notification: .closerKeysReleased, title: "Ready to reveal",
                        body: "Your partner released their answer.", data: Self.eventData(scope, userID: callerID)
                    ),
                    coupleID: coupleID, to: partner, on: tx
                )
            }
            let rows = try await sql.all(CloserQueries.releaseKeysOfAuthor.binding(coupleID, scope.key, callerID))
            let keys = try rows.map(Self.releaseKeyDocument)
            guard let sender = upload.senderDeviceId else { return .init(keys: keys) }
            let covered = Set(keys.map { $0.recipientUserId + "|" + $0.recipientDeviceId })
            let missing = registered.filter {
                !($0.userId == callerID && $0.deviceId == sender) && !covered.contains($0.userId + "|" + $0.deviceId)
            }
            return .init(keys: keys, missingRecipients: missing)
        }
    }

    /// The keyboxes in `scope` addressed to the caller's device `deviceID`.
    func releaseKeys(
        _ user: AuthenticatedUser, coupleID: String, scope: ReleaseScope, deviceID: String
    ) async throws -> Components.Schemas.CloserReleaseKeyList {
        guard CloserShapes.isDeviceID(deviceID) else { throw KindredError.badRequest("deviceId must be 1–64 of A-Z a-z 0-9 . _ -") }
        let sql = database.sql
        _ = try await Self.couple(coupleID, member: user.user.id, on: sql)
        if case .thread(let id) = scope { _ = try await Self.thread(id, coupleID: coupleID, on: sql) }
        return .init(keys: try await Self.keyboxes(coupleID: coupleID, scope: scope, recipient: user.user.id, deviceID: deviceID, on: sql))
    }

    /// The keyboxes in `scope` addressed to `recipient`'s device `deviceID`, oldest first.
    static func keyboxes(
        coupleID: String, scope: ReleaseScope, recipient: String, deviceID: String, on sql: any SQLDatabase
    ) async throws -> [Components.Schemas.CloserReleaseKey] {
        let rows = try await sql.all(CloserQueries.releaseKeysOfDevice.binding(coupleID, scope.key, recipient, deviceID))
        return try rows.map(Self.releaseKeyDocument)
    }

    private static func releaseKeyDocument(_ row: any SQLRow) throws -> Components.Schemas.CloserReleaseKey {
        Components.Schemas.CloserReleaseKey(
            senderUserId: try row.decode(column: "user_id", as: String.self),
            recipientUserId: try row.decode(column: "recipient_id", as: String.self),
            recipientDeviceId: try row.decode(column: "recipient_device_id", as: String.self),
            encryptedAnswerKey: try row.decode(column: "encrypted_answer_key", as: String.self),
            createdAt: Date(millisecondsSince1970: try row.decode(column: "created_at", as: Int64.self))
        )
    }

    /// Refuses unless both have written in `scope` and the author's entry is sealed.
    private static func requireBothSealed(_ scope: ReleaseScope, couple: CoupleRecord, author: String, on sql: any SQLDatabase) async throws {
        let rows: [any SQLRow]
        switch scope {
        case .day(let date):
            guard try await DayRecord.load(coupleID: couple.id, date: date, on: sql) != nil else { throw KindredError.dayNotFound }
            rows = try await sql.all(CloserQueries.answerVersions.binding(couple.id, date))
            guard rows.contains(where: { (try? $0.decode(column: "user_id", as: String.self)) == author }) else { throw KindredError.answerNotFound }
        case .thread(let id):
            _ = try await thread(id, coupleID: couple.id, on: sql)
            rows = try await sql.select().columns("user_id", "schema_version").from("closer_thread_messages").where("thread_id", .equal, id).all()
            guard rows.contains(where: { (try? $0.decode(column: "user_id", as: String.self)) == author }) else { throw KindredError.messageNotFound }
        }
        guard rows.count >= 2 else { throw KindredError.answersIncomplete }
        let own = rows.first { (try? $0.decode(column: "user_id", as: String.self)) == author }
        guard try own?.decode(column: "schema_version", as: Int.self) == 3 else {
            throw KindredError.invalidReleaseKey("only sealed (schemaVersion 3) answers have keys to release")
        }
    }

    private static func markReleased(
        _ scope: ReleaseScope, coupleID: String, author: String, revealed: Bool, now: Int64, on sql: any SQLDatabase
    ) async throws {
        switch scope {
        case .day(let date):
            if revealed {
                try await sql.run(CloserQueries.releaseAndRevealAnswer.binding(true, true, now, coupleID, date, author))
            } else {
                try await sql.run(CloserQueries.releaseAnswer.binding(true, now, coupleID, date, author))
            }
        case .thread(let id):
            try await sql.update("closer_thread_messages").set("answer_key_released", to: true).set("updated_at", to: now)
                .where("thread_id", .equal, id).where("user_id", .equal, author).run()
        }
    }

    private static func eventData(_ scope: ReleaseScope, userID: String) -> [String: String] {
        switch scope {
        case .day(let date): ["date": date, "userId": userID]
        case .thread(let id): ["threadId": id, "userId": userID]
        }
    }
}
