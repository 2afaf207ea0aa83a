import Foundation

/// What a result points at: a library asset or a calendar event (series).
public enum ScanItem: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// A photo or video of the library.
    case asset(AssetID)
    /// A calendar event (the whole series).
    case event(EventID)

    /// The store's key: `asset:<id>` or `event:<id>`.
    public var key: String {
        switch self {
        case .asset(let id): "asset:\(id.rawValue)"
        case .event(let id): "event:\(id.rawValue)"
        }
    }

    /// The item of a store key, or `nil`.
    public init?(key: String) {
        if key.hasPrefix("asset:") {
            self = .asset(AssetID(rawValue: String(key.dropFirst(6))))
        } else if key.hasPrefix("event:") {
            self = .event(EventID(rawValue: String(key.dropFirst(6))))
        } else {
            return nil
        }
    }

    /// Ordered by key.
    public static func < (lhs: ScanItem, rhs: ScanItem) -> Bool { lhs.key < rhs.key }
    /// The key.
    public var description: String { key }
}

/// What kind of item a result is (seed §4.1 `ScanResult.type`).
public enum ScanItemKind: String, Sendable, Codable {
    /// A photo.
    case photo
    /// A video.
    case video
    /// A calendar event.
    case calendarEvent = "calendar_event"

    /// The kind of a library asset.
    init(_ mediaType: MediaType) { self = mediaType == .photo ? .photo : .video }
}

/// Why an item is a result (seed §4.1 `matchType`); the order is the gallery's category order.
public enum ScanCategory: String, Sendable, Codable, CaseIterable, Comparable {
    /// The face phase: the ex's face.
    case face
    /// A date range (a photo captured, or an event held, in it).
    case dateRange = "date_range"
    /// The contact phase: the ex on the event.
    case contact
    /// Added by the user in the review.
    case manual

    /// The gallery's order (declaration order).
    public static func < (lhs: ScanCategory, rhs: ScanCategory) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// A decision in the review (seed §4.1 `userDecision`).
public enum ReviewDecision: String, Sendable, Codable, CaseIterable {
    /// Move into the encrypted Vault.
    case vault
    /// Delete (through the 7-day Cooling Off bin).
    case delete
    /// Leave as it is.
    case keep
}

/// One phase's finding about one item.
public struct ScanMatch: Sendable, Equatable, Codable {
    /// The item found.
    public var item: ScanItem
    /// What it is.
    public var kind: ScanItemKind
    /// The phase (or the user) that found it.
    public var category: ScanCategory
    /// 0 to 1.
    public var confidence: Double
    /// The asset's capture date, or the event's (first matching occurrence's) start.
    public var date: Date
    /// For a face match: the distance to the nearest reference.
    public var faceDistance: Double?
    /// For a contact match: what matched.
    public var contactHit: ContactHit?

    /// A finding; the confidence is clamped to 0…1 (a non-finite one reads 0).
    public init(
        item: ScanItem, kind: ScanItemKind, category: ScanCategory, confidence: Double, date: Date,
        faceDistance: Double? = nil, contactHit: ContactHit? = nil
    ) {
        self.item = item
        self.kind = kind
        self.category = category
        self.confidence = min(1, max(0, confidence.isFinite ? confidence : 0))
        self.date = date
        self.faceDistance = faceDistance
        self.contactHit = contactHit
    }
}

/// One item in the Review Gallery: every phase's findings about it merged.
public struct ScanResult: Sendable, Equatable, Identifiable {
    /// The item.
    public var item: ScanItem
    /// What it is.
    public var kind: ScanItemKind
    /// Every category that found it, in `ScanCategory` order.
    public var categories: [ScanCategory]
    /// The highest confidence of its findings.
    public var confidence: Double
    /// Its date (the earliest of its findings' dates; they agree for an asset).
    public var date: Date
    /// The face distance, when the face phase found it.
    public var faceDistance: Double?
    /// The contact hit, when the contact phase found it.
    public var contactHit: ContactHit?
    /// The user's decision, once made.
    public var decision: ReviewDecision?

    /// The item is the identity.
    public var id: ScanItem { item }
}
