import CloserAPI
import Foundation
import KindredServerCore
import SQLKit

/// A row of `closer_capsules`: a time capsule whose title and content are `enc:v1:`
/// ciphertexts under the couple key.
struct CapsuleRecord: Sendable, Equatable {
    var id: String
    var coupleID: String
    var createdBy: String
    var title: String
    var content: String
    var unlockAt: Int64
    var unlockedAt: Int64?
    var createdAt: Int64

    /// The columns `init(row:)` reads.
    static let columns = ["id", "couple_id", "created_by", "title", "content", "unlock_at", "unlocked_at", "created_at"]

    init(id: String, coupleID: String, createdBy: String, title: String, content: String, unlockAt: Int64, createdAt: Int64) {
        self.id = id
        self.coupleID = coupleID
        self.createdBy = createdBy
        self.title = title
        self.content = content
        self.unlockAt = unlockAt
        self.createdAt = createdAt
    }

    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: String.self)
        coupleID = try row.decode(column: "couple_id", as: String.self)
        createdBy = try row.decode(column: "created_by", as: String.self)
        title = try row.decode(column: "title", as: String.self)
        content = try row.decode(column: "content", as: String.self)
        unlockAt = try row.decode(column: "unlock_at", as: Int64.self)
        unlockedAt = try row.decode(column: "unlocked_at", as: Int64?.self)
        createdAt = try row.decode(column: "created_at", as: Int64.self)
    }

    /// Whether the capsule is still locked at `nowMS` (its unlock time decides, not the job).
    func isLocked(at nowMS: Int64) -> Bool { nowMS < unlockAt }

    /// The API document; the content only once the capsule is unlocked.
    func document(nowMS: Int64) -> Components.Schemas.CloserCapsule {
        let locked = isLocked(at: nowMS)
        return .init(
            id: id, coupleId: coupleID, createdBy: createdBy, title: title, unlockAt: Date(millisecondsSince1970: unlockAt),
            createdAt: Date(millisecondsSince1970: createdAt), locked: locked,
            announcedAt: unlockedAt.map { Date(millisecondsSince1970: $0) }, content: locked ? nil : content
        )
    }
}
