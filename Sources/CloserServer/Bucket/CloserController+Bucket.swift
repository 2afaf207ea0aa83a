import CloserAPI
import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// The couple's bucket list (the seed's `bucket_list`): either partner adds, completes, reopens
/// or removes an item. Titles are plaintext under the couple, as in the seed. Each change is
/// published on the couple's channel as `closer.bucket_updated`.
extension CloserController {
    /// The longest title.
    static let bucketTitleLimit = 200

    /// Open items first (oldest first), then completed ones (most recently completed first).
    func bucketItems(_ user: AuthenticatedUser, coupleID: String) async throws -> Components.Schemas.CloserBucketList {
        let sql = database.sql
        _ = try await Self.couple(coupleID, member: user.user.id, on: sql)
        let items = try await sql.select().columns(BucketItemRecord.columns).from("closer_bucket_items").where("couple_id", .equal, coupleID)
            .all().map(BucketItemRecord.init(row:))
        let open = items.filter { $0.completedAt == nil }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        let done = items.filter { $0.completedAt != nil }.sorted { ($0.completedAt ?? 0, $0.id) > ($1.completedAt ?? 0, $1.id) }
        return .init(items: (open + done).map(\.document))
    }

    /// Adds an item.
    /// - Throws: 400 `invalid_bucket_item`, 404 `couple_not_found`.
    func addBucketItem(_ user: AuthenticatedUser, coupleID: String, body: Components.Schemas.CloserBucketItemCreate) async throws -> Components.Schemas.CloserBucketItem {
        let title = body.title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty, title.count <= Self.bucketTitleLimit else {
            throw KindredError.invalidBucketItem("title must be 1–\(Self.bucketTitleLimit) characters")
        }
        if let category = body.category, !BucketItemRecord.isValidCategory(category) {
            throw KindredError.invalidBucketItem("category must match ^[a-z][a-z0-9_]{0,31}$")
        }
        let callerID = user.user.id
        let item = BucketItemRecord(id: RandomID.make(), coupleID: coupleID, title: title, category: body.category, addedBy: callerID, createdAt: nowMS)
        let events = self.events
        try await events.publisher.transaction { tx in
            _ = try await Self.couple(coupleID, member: callerID, on: tx.sql)
            try await tx.sql.insert(into: "closer_bucket_items").columns("id", "couple_id", "title", "category", "added_by", "created_at")
                .values(SQLBind(item.id), SQLBind(coupleID), SQLBind(title), SQLBind(item.category), SQLBind(callerID), SQLBind(item.createdAt)).run()
            try await Self.publishBucket(item.id, change: "added", coupleID: coupleID, by: callerID, events: events, on: tx)
        }
        return item.document
    }

    /// Completes (or reopens) an item.
    /// - Throws: 404 `bucket_item_not_found`, 404 `couple_not_found`.
    func setBucketItemCompleted(_ user: AuthenticatedUser, coupleID: String, itemID: String, completed: Bool) async throws -> Components.Schemas.CloserBucketItem {
        let callerID = user.user.id
        let now = nowMS
        let events = self.events
        return try await events.publisher.transaction { tx in
            let sql = tx.sql
            _ = try await Self.couple(coupleID, member: callerID, on: sql)
            guard var item = try await sql.select().columns(BucketItemRecord.columns).from("closer_bucket_items")
                .where("id", .equal, itemID).where("couple_id", .equal, coupleID).first().map(BucketItemRecord.init(row:))
            else { throw KindredError.bucketItemNotFound }
            guard (item.completedAt != nil) != completed else { return item.document }
            item.completedAt = completed ? now : nil
            item.completedBy = completed ? callerID : nil
            try await sql.update("closer_bucket_items").set("completed_at", to: item.completedAt).set("completed_by", to: item.completedBy)
                .where("id", .equal, itemID).run()
            try await Self.publishBucket(itemID, change: completed ? "completed" : "reopened", coupleID: coupleID, by: callerID, events: events, on: tx)
            return item.document
        }
    }

    /// Removes an item.
    /// - Throws: 404 `bucket_item_not_found`, 404 `couple_not_found`.
    func removeBucketItem(_ user: AuthenticatedUser, coupleID: String, itemID: String) async throws {
        let callerID = user.user.id
        let events = self.events
        try await events.publisher.transaction { tx in
            _ = try await Self.couple(coupleID, member: callerID, on: tx.sql)
            let removed = try await tx.sql.delete(from: "closer_bucket_items").where("id", .equal, itemID).where("couple_id", .equal, coupleID)
                .returning("id").all()
            guard !removed.isEmpty else { throw KindredError.bucketItemNotFound }
            try await Self.publishBucket(itemID, change: "removed", coupleID: coupleID, by: callerID, events: events, on: tx)
        }
    }

    /// Publishes `closer.bucket_updated` (ids and the kind of change only, never the title).
    static func publishBucket(
        _ itemID: String, change: String, coupleID: String, by userID: String, events: CloserEvents, on tx: RealtimeTransaction
    ) async throws {
        guard let channel = CloserEvents.channel(coupleID) else { return }
        try await events.publisher.publish(
            channel: channel, type: "closer.bucket_updated", data: ["coupleId": coupleID, "itemId": itemID, "change": change, "userId": userID], on: tx
        )
    }
}
