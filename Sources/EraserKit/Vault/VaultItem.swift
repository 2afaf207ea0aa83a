import Foundation

/// A Vault item's id: a lowercase UUID, also the name of its encrypted files.
public struct VaultItemID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    /// The id `rawValue` (not checked: ids from outside go through `init(validating:)`).
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The id in `text`, when it is a UUID (any case; kept lowercase).
    /// - Throws: `VaultError.notFound` for text that is not a UUID, since no item can have it.
    public init(validating text: String) throws(EraserKitError) {
        guard let uuid = UUID(uuidString: text) else { throw .vault(.notFound(text)) }
        rawValue = uuid.uuidString.lowercased()
    }

    /// A fresh random id.
    static func make() -> VaultItemID { VaultItemID(rawValue: UUID().uuidString.lowercased()) }

    public static func < (lhs: VaultItemID, rhs: VaultItemID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { rawValue }
}

/// What a Vault item holds (the seed's `vault_items.type`).
public enum VaultItemType: String, Sendable, Codable, CaseIterable {
    case photo
    case video
    /// A calendar event, as its iCalendar `VEVENT` text.
    case calendar
    /// A message export.
    case message
}

/// Why the item was found (the seed's `vault_items.match_type`, plus `manual`).
public enum VaultMatchType: String, Sendable, Codable, CaseIterable {
    case face
    case dateRange = "date_range"
    case contact
    /// The user chose the item themselves.
    case manual
}

/// Where the item came from (the seed's `vault_items.source`).
public enum VaultSource: String, Sendable, Codable, CaseIterable {
    case cameraRoll = "camera_roll"
    case icloud
    case calendar
    case messages
}

/// A place, as recorded with a photo.
public struct VaultLocation: Sendable, Codable, Equatable {
    public var latitude: Double
    public var longitude: Double

    /// A place at `latitude`, `longitude` (degrees).
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// What the Vault remembers about an item's original: kept encrypted in `vault_items.metadata`.
public struct VaultItemMetadata: Sendable, Codable, Equatable {
    /// Where the original was (a file path on Linux); `add(file:)` fills it from the file when nil.
    public var originalPath: String?
    /// The original's file name, used by `export`; `add(file:)` fills it from the file when nil.
    public var originalName: String?
    /// When the photo or video was taken, or when the event starts.
    public var capturedAt: Date?
    /// The original's modification time, restored by `export`; `add(file:)` reads it when nil.
    public var modifiedAt: Date?
    /// Where the photo was taken.
    public var location: VaultLocation?
    /// The album the original was in.
    public var album: String?
    /// A title: the event's summary, the conversation's name.
    public var title: String?
    /// Anything else the caller wants kept with the item.
    public var extra: [String: String]

    /// Metadata with the given fields.
    public init(originalPath: String? = nil, originalName: String? = nil, capturedAt: Date? = nil,
                modifiedAt: Date? = nil, location: VaultLocation? = nil, album: String? = nil,
                title: String? = nil, extra: [String: String] = [:]) {
        self.originalPath = originalPath
        self.originalName = originalName
        self.capturedAt = capturedAt
        self.modifiedAt = modifiedAt
        self.location = location
        self.album = album
        self.title = title
        self.extra = extra
    }
}

/// What the caller hands the Vault with an item's bytes.
public struct VaultItemInput: Sendable, Equatable {
    /// The original's id (PhotoKit asset id, calendar event id, …).
    public var originalID: String
    public var type: VaultItemType
    public var matchType: VaultMatchType
    public var source: VaultSource
    public var metadata: VaultItemMetadata

    /// An input for one item.
    public init(originalID: String, type: VaultItemType, matchType: VaultMatchType, source: VaultSource,
                metadata: VaultItemMetadata = VaultItemMetadata()) {
        self.originalID = originalID
        self.type = type
        self.matchType = matchType
        self.source = source
        self.metadata = metadata
    }
}

/// One item in the Vault, its metadata decrypted.
public struct VaultItem: Sendable, Equatable, Identifiable {
    public var id: VaultItemID
    /// The original's id (decrypted: vault.db keeps only a keyed hash of it).
    public var originalID: String
    public var type: VaultItemType
    public var matchType: VaultMatchType
    public var source: VaultSource
    public var metadata: VaultItemMetadata
    /// When the item was vaulted.
    public var createdAt: Date
    /// The plaintext's size in bytes.
    public var byteCount: Int64
    /// Whether `thumbnail(_:)` has a JPEG for it.
    public var hasThumbnail: Bool
    /// The item's pending Cooling Off entry, when it is waiting to be destroyed.
    public var coolingOff: CoolingOffEntry?
}
