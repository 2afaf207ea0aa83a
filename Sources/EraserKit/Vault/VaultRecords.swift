import Foundation
import GRDB

/// A row of `vault_items`.
struct VaultItemRecord: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "vault_items"

    var id: String
    /// Hex HMAC of the original id (`VaultCiphers.originalIDDigest`).
    var originalID: String
    var type: String
    /// `media/<id>.enc`, relative to the vault folder.
    var filePath: String?
    /// `thumbnails/<id>_thumb.enc`, or nil when there is no thumbnail.
    var thumbnailPath: String?
    /// The sealed `SealedItemPayload` (`VaultCiphers.sealMetadata`).
    var metadata: String?
    var matchType: String
    /// ISO 8601 (`VaultDates`).
    var createdAt: String
    var source: String

    enum CodingKeys: String, CodingKey {
        case id
        case originalID = "original_id"
        case type
        case filePath = "file_path"
        case thumbnailPath = "thumbnail_path"
        case metadata
        case matchType = "match_type"
        case createdAt = "created_at"
        case source
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let originalID = Column(CodingKeys.originalID)
        static let createdAt = Column(CodingKeys.createdAt)
    }
}

/// A row of `cooling_off`.
struct CoolingOffRecord: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "cooling_off"

    var id: String
    /// The item, until it is destroyed (then NULL: the row stays as a record of the deletion).
    var vaultItemID: String?
    /// ISO 8601 (`VaultDates`).
    var deleteAfter: String
    var reminded: Bool
    /// `pending`, `deleted` or `restored` (`CoolingOffStatus`).
    var status: String
    var createdAt: String?
    var resolvedAt: String?
    /// The `LocalNotifier` id of the day-6 reminder this entry shares with its batch.
    var reminderID: String?

    enum CodingKeys: String, CodingKey {
        case id
        case vaultItemID = "vault_item_id"
        case deleteAfter = "delete_after"
        case reminded
        case status
        case createdAt = "created_at"
        case resolvedAt = "resolved_at"
        case reminderID = "reminder_id"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let vaultItemID = Column(CodingKeys.vaultItemID)
        static let deleteAfter = Column(CodingKeys.deleteAfter)
        static let reminded = Column(CodingKeys.reminded)
        static let status = Column(CodingKeys.status)
        static let reminderID = Column(CodingKeys.reminderID)
    }
}

/// A row of `scan_history`.
struct ScanHistoryRecord: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "scan_history"

    var id: String
    var startedAt: String
    var completedAt: String?
    var totalScanned: Int?
    var totalMatched: Int?
    var totalVaulted: Int?
    var totalDeleted: Int?

    enum CodingKeys: String, CodingKey {
        case id
        case startedAt = "started_at"
        case completedAt = "completed_at"
        case totalScanned = "total_scanned"
        case totalMatched = "total_matched"
        case totalVaulted = "total_vaulted"
        case totalDeleted = "total_deleted"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let startedAt = Column(CodingKeys.startedAt)
    }
}

/// The ISO 8601 text of vault.db's dates: UTC with milliseconds (`2026-11-26T12:00:00.000Z`),
/// so text order is time order.
enum VaultDates {
    private static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// `date` as stored.
    static func text(_ date: Date) -> String { style.format(date) }

    /// A stored date.
    /// - Throws: `VaultError.corrupted` when `text` is not one.
    static func date(_ text: String, what: String) throws(EraserKitError) -> Date {
        do {
            return try style.parse(text)
        } catch {
            throw .vault(.corrupted(what: what, reason: "\(text) is not an ISO 8601 date"))
        }
    }
}
