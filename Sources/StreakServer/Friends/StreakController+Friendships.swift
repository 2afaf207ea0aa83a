import Foundation
import KindredServerCore
import KindredStore
import SQLKit
import StreakAPI

/// Friendships: created only by their sender (pending), accepted only by their recipient, removed
/// by either. The sender and recipient of a row never change. Accepting one adds each to the
/// other's score readers and removing an accepted one takes them out, in the same transaction.
extension StreakController {
    struct FriendshipRecord: Sendable {
        var id: String
        var senderID: String
        var recipientID: String
        var status: String
        var createdAt: Int64
        var acceptedAt: Int64?

        static let columns = "id, sender_id, recipient_id, status, created_at, accepted_at"

        init(row: any SQLRow) throws {
            id = try row.decode(column: "id", as: String.self)
            senderID = try row.decode(column: "sender_id", as: String.self)
            recipientID = try row.decode(column: "recipient_id", as: String.self)
            status = try row.decode(column: "status", as: String.self)
            createdAt = try row.decode(column: "created_at", as: Int64.self)
            acceptedAt = try row.decode(column: "accepted_at", as: Int64?.self)
        }

        init(id: String, sender: String, recipient: String, createdAt: Int64) {
            self.id = id
            senderID = sender
            recipientID = recipient
            status = "pending"
            self.createdAt = createdAt
        }

        func involves(_ userID: String) -> Bool { senderID == userID || recipientID == userID }
    }

    /// The key of the one row two people may share: their ids in order.
    static func pairKey(_ a: String, _ b: String) -> String { a < b ? "\(a):\(b)" : "\(b):\(a)" }

    static func friendship(id: String, locking: Bool, on sql: any SQLDatabase) async throws -> FriendshipRecord? {
        guard StreakInput.isFriendshipID(id) else { return nil }
        let statement = locking ? StreakQueries.friendshipByIDLocked : StreakQueries.friendshipByID
        return try await sql.first(statement.binding(id)).map(FriendshipRecord.init(row:))
    }

    func document(_ record: FriendshipRecord, names: [String: String]) -> Components.Schemas.StreakSyncFriendship {
        .init(
            id: record.id, status: record.status == "accepted" ? .accepted : .pending,
            from: Self.person(record.senderID, names: names), to: Self.person(record.recipientID, names: names),
            createdAt: Self.date(record.createdAt), acceptedAt: record.acceptedAt.map(Self.date)
        )
    }

    /// Sends a friend request to the owner of `code`, or accepts theirs when they asked first.
    func createFriendRequest(_ user: AuthenticatedUser, code raw: String, scope: RequestScope) async throws
        -> Components.Schemas.StreakSyncFriendship
    {
        let userID = user.id
        _ = try await Self.requireProfile(userID, on: database.sql)
        let code = try Self.normalizedCode(raw)
        // Every look-up counts, found or not.
        try await countLookUp(userID, scope: scope)
        let now = nowMS
        let settings = settings
        let events = events
        let record: FriendshipRecord = try await events.publisher.transaction { tx in
            let sql = tx.sql
            guard let owner = try await sql.select().column("user_id").from("streaksync_friend_codes").where("code", .equal, code)
                .first()?.decode(column: "user_id", as: String.self)
            else { throw KindredError.friendCodeNotFound }
            guard owner != userID else { throw KindredError.ownFriendCode }
            if let existing = try await sql.first(StreakQueries.friendshipByPairLocked.binding(Self.pairKey(userID, owner)))
                .map(FriendshipRecord.init(row:))
            {
                guard existing.status == "pending" else { throw KindredError.alreadyFriends }
                guard existing.recipientID == userID else { throw KindredError.friendRequestExists }
                // They asked first: asking back is consent, so theirs is accepted now.
                return try await self.accept(existing, now: now, on: tx)
            }
            let pending = try await Self.count(
                sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("streaksync_friendships")
                    .where("sender_id", .equal, userID).where("status", .equal, "pending")
            )
            guard pending < settings.maxPendingRequests else { throw KindredError.tooManyFriendRequests(settings.maxPendingRequests) }
            guard try await Self.friendCounts(of: [userID], on: sql)[userID, default: 0] < settings.maxFriends else {
                throw KindredError.tooManyFriends(settings.maxFriends)
            }
            let request = FriendshipRecord(id: RandomID.make(), sender: userID, recipient: owner, createdAt: now)
            let inserted = try await sql.insert(into: "streaksync_friendships")
                .columns("id", "pair_key", "sender_id", "recipient_id", "status", "created_at")
                .values(
                    SQLBind(request.id), SQLBind(Self.pairKey(userID, owner)), SQLBind(userID), SQLBind(owner), SQLBind("pending"),
                    SQLBind(now)
                )
                .ignoringConflicts().returning("id").all()
            // The other side's request committed meanwhile: the caller asks again and accepts it.
            guard !inserted.isEmpty else { throw KindredError.friendRequestExists }
            try await events.emit(
                "streaksync.friend_request", data: ["friendshipId": request.id, "fromUserId": userID], to: [owner, userID],
                push: .init(title: "StreakSync", body: "You have a new friend request.", data: ["friendshipId": request.id]),
                pushTo: [owner], on: tx
            )
            return request
        }
        return document(record, names: try await Self.names(of: [record.senderID, record.recipientID], on: database.sql))
    }

    /// The caller's friends and pending requests.
    func friends(_ user: AuthenticatedUser) async throws -> Components.Schemas.StreakSyncFriends {
        let sql = database.sql
        let userID = user.id
        let accepted = try await sql.all(StreakQueries.acceptedFriendships.binding(userID, userID)).map(FriendshipRecord.init(row:))
        var pending: [FriendshipRecord] = []
        for statement in [StreakQueries.incomingRequests, StreakQueries.outgoingRequests] {
            pending += try await sql.all(statement.binding(userID)).map(FriendshipRecord.init(row:))
        }
        let names = try await Self.names(of: (accepted + pending).flatMap { [$0.senderID, $0.recipientID] }, on: sql)
        return .init(
            friends: accepted.map { record in
                let other = record.senderID == userID ? record.recipientID : record.senderID
                return .init(friendshipId: record.id, user: Self.person(other, names: names), since: Self.date(record.acceptedAt ?? record.createdAt))
            },
            incoming: pending.filter { $0.recipientID == userID }.map { document($0, names: names) },
            outgoing: pending.filter { $0.senderID == userID }.map { document($0, names: names) }
        )
    }

    /// Accepts a pending request addressed to the caller.
    func acceptFriendship(_ user: AuthenticatedUser, id: String) async throws -> Components.Schemas.StreakSyncFriendship {
        let now = nowMS
        let userID = user.id
        let record = try await events.publisher.transaction { tx in
            guard let request = try await Self.friendship(id: id, locking: true, on: tx.sql), request.involves(userID) else {
                throw KindredError.friendshipNotFound
            }
            guard request.status == "pending" else { throw KindredError.alreadyFriends }
            guard request.recipientID == userID else { throw KindredError.notRecipient }
            return try await self.accept(request, now: now, on: tx)
        }
        return document(record, names: try await Self.names(of: [record.senderID, record.recipientID], on: database.sql))
    }

    /// Removes a friendship the caller is party to: declines, cancels or unfriends.
    func removeFriendship(_ user: AuthenticatedUser, id: String) async throws {
        let userID = user.id
        let events = events
        try await events.publisher.transaction { tx in
            let sql = tx.sql
            guard let record = try await Self.friendship(id: id, locking: true, on: sql), record.involves(userID) else {
                throw KindredError.friendshipNotFound
            }
            try await sql.delete(from: "streaksync_friendships").where("id", .equal, record.id).run()
            if record.status == "accepted" {
                try await Self.removeReaders(record.senderID, record.recipientID, on: sql)
            }
            try await events.emit(
                "streaksync.friendship_removed", data: ["friendshipId": record.id, "status": record.status],
                to: [record.senderID, record.recipientID], on: tx
            )
        }
    }

    /// Accepts `request`: both need a profile and room for one more friend; each becomes a
    /// reader of the other's scores. Both profile rows are locked first (in id order), so two
    /// acceptances cannot both take a person's last place.
    func accept(_ request: FriendshipRecord, now: Int64, on tx: RealtimeTransaction) async throws -> FriendshipRecord {
        let sql = tx.sql
        let (sender, recipient) = (request.senderID, request.recipientID)
        let locked = try await sql.all(StreakQueries.lockTwoProfiles.binding(sender, recipient))
        guard locked.count == 2 else { throw KindredError.profileIncomplete }
        let counts = try await Self.friendCounts(of: [sender, recipient], on: sql)
        guard counts.values.allSatisfy({ $0 < settings.maxFriends }) else { throw KindredError.tooManyFriends(settings.maxFriends) }
        try await sql.update("streaksync_friendships").set("status", to: "accepted").set("accepted_at", to: now)
            .where("id", .equal, request.id).run()
        try await sql.insert(into: "streaksync_score_readers").columns("reader_id", "publisher_id", "since")
            .values(SQLBind(sender), SQLBind(recipient), SQLBind(now))
            .values(SQLBind(recipient), SQLBind(sender), SQLBind(now))
            .ignoringConflicts().run()
        try await events.emit(
            "streaksync.friendship", data: ["friendshipId": request.id, "status": "accepted"], to: [sender, recipient],
            push: .init(title: "StreakSync", body: "Your friend request was accepted.", data: ["friendshipId": request.id]),
            pushTo: [sender], on: tx
        )
        var accepted = request
        accepted.status = "accepted"
        accepted.acceptedAt = now
        return accepted
    }

    /// Takes two former friends out of each other's readers.
    static func removeReaders(_ a: String, _ b: String, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "streaksync_score_readers")
            .where { $0.where("reader_id", .equal, a).where("publisher_id", .equal, b) }
            .orWhere { $0.where("reader_id", .equal, b).where("publisher_id", .equal, a) }
            .run()
    }

    /// The accepted friends of each of `userIDs` (their readers but themselves).
    static func friendCounts(of userIDs: [String], on sql: any SQLDatabase) async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in try await sql.raw("""
            SELECT publisher_id, COUNT(*) AS n FROM streaksync_score_readers
            WHERE publisher_id IN (\(binds: userIDs)) AND reader_id <> publisher_id GROUP BY publisher_id
            """).all()
        {
            counts[try row.decode(column: "publisher_id", as: String.self)] = try row.decode(column: "n", as: Int.self)
        }
        return counts
    }

    static func count(_ query: SQLSelectBuilder) async throws -> Int {
        try await query.first()?.decode(column: "n", as: Int.self) ?? 0
    }
}
