import CloserAPI
import Foundation
import SQLKit

/// A row of `closer_bucket_items` (the seed's `bucket_list`).
struct BucketItemRecord: Sendable, Equatable {
    var id: String
    var coupleID: String
    var title: String
    var category: String?
    var addedBy: String
    var createdAt: Int64
    var completedAt: Int64?
    var completedBy: String?

    /// The columns `init(row:)` reads.
    static let columns = ["id", "couple_id", "title", "category", "added_by", "created_at", "completed_at", "completed_by"]

    init(id: String, coupleID: String, title: String, category: String?, addedBy: String, createdAt: Int64) {
        self.id = id
        self.coupleID = coupleID
        self.title = title
        self.category = category
        self.addedBy = addedBy
        self.createdAt = createdAt
    }

    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: String.self)
        coupleID = try row.decode(column: "couple_id", as: String.self)
        title = try row.decode(column: "title", as: String.self)
        category = try row.decode(column: "category", as: String?.self)
        addedBy = try row.decode(column: "added_by", as: String.self)
        createdAt = try row.decode(column: "created_at", as: Int64.self)
        completedAt = try row.decode(column: "completed_at", as: Int64?.self)
        completedBy = try row.decode(column: "completed_by", as: String?.self)
    }

    /// The API document.
    var document: Components.Schemas.CloserBucketItem {
        .init(
            id: id, coupleId: coupleID, title: title, category: category, addedBy: addedBy, createdAt: Date(millisecondsSince1970: createdAt),
            completedAt: completedAt.map { Date(millisecondsSince1970: $0) }, completedBy: completedBy
        )
    }

    /// Whether `category` matches `^[a-z][a-z0-9_]{0,31}$`.
    static func isValidCategory(_ category: String) -> Bool {
        guard let first = category.utf8.first, (0x61...0x7A).contains(first), category.utf8.count <= 32 else { return false }
        return category.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "_") }
    }
}
