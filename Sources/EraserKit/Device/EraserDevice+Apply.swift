import Foundation

/// What `EraserDevice.apply` carried out.
public struct ApplyReport: Sendable, Equatable {
    /// One carried-out decision.
    public struct Entry: Sendable, Equatable {
        /// The result's store key (`asset:<id>`, `event:<id>`).
        public var itemKey: String
        /// `.vault` or `.delete`.
        public var decision: ReviewDecision
        /// The Vault item now holding it.
        public var vaultItemID: VaultItemID
        /// When a deleted item is destroyed for good, unless restored first.
        public var deleteAfter: Date?
    }

    /// The decisions carried out, in gallery order.
    public var entries: [Entry]
}

extension EraserDevice {
    /// The Vault metadata key holding the JSON of the `RemovedAsset` or `RemovedEvent` (without
    /// its `original` bytes, which are the item's contents) that `restore` needs.
    public static let removedMetadataKey = "eraser.removed"

    /// Carries out the review's pending vault and delete decisions: each item is copied into the
    /// Vault first, then taken out of the library or calendar (a crash in between leaves the item
    /// in both places, never in neither); a deleted item then goes into the Cooling Off bin.
    /// A decision is marked executed once done, so running `apply` again resumes.
    /// - Throws: the review's, library's, calendar's and Vault's errors (items done before stay done).
    @discardableResult
    public func apply(now: Date = Date()) throws(EraserKitError) -> ApplyReport {
        let settings = try settings()
        return try apply(now: now, library: try library(settings), calendar: try calendar(settings))
    }

    /// `apply(now:)` over the given library and calendar (tests pass a calendar that fails on cue).
    func apply(now: Date, library: any PhotoLibrary, calendar: (any CalendarStore)?) throws(EraserKitError) -> ApplyReport {
        let review = ScanReview(store: scanStore, library: library, calendar: calendar)
        var entries: [ApplyReport.Entry] = []
        let categories = Dictionary(try review.results().map { ($0.item, $0.categories) }, uniquingKeysWith: { first, _ in first })
        for pending in try review.pendingDecisions() {
            let matchType = Self.matchType(categories[pending.item]?.first)
            let item: VaultItem
            switch pending.item {
            case .asset(let id):
                item = try vaultPhoto(id, library: library, matchType: matchType, now: now)
            case .event(let id):
                guard let calendar else { throw .scan(.missingDependency("a calendar")) }
                item = try vaultEvent(id, calendar: calendar, matchType: matchType, now: now)
            }
            var deleteAfter: Date?
            if pending.decision == .delete {
                if let entry = item.coolingOff, entry.status == .pending {
                    deleteAfter = entry.deleteAfter  // An interrupted apply already put it in the bin.
                } else {
                    deleteAfter = try vault.deleteLater(item.id, now: now).deleteAfter
                }
            }
            try review.markExecuted(pending.item)
            entries.append(.init(itemKey: pending.item.key, decision: pending.decision, vaultItemID: item.id, deleteAfter: deleteAfter))
            if var figures = try self.settings().scan {
                if pending.decision == .delete { figures.totalDeleted += 1 } else { figures.totalVaulted += 1 }
                try record(figures)
            }
        }
        return ApplyReport(entries: entries)
    }

    /// The Vault's match type for a result's first category.
    static func matchType(_ category: ScanCategory?) -> VaultMatchType {
        switch category {
        case .face: return .face
        case .dateRange: return .dateRange
        case .contact: return .contact
        case .manual, nil: return .manual
        }
    }

    /// Copies the asset into the Vault (unless an interrupted apply already did), then removes it
    /// from the library. What a restore needs (the asset, its modification date, its state) is
    /// the library's own record (`restorable`), never read from the file `contentsURL` gives,
    /// which for PhotoKit is a copy written just now.
    private func vaultPhoto(_ id: AssetID, library: any PhotoLibrary, matchType: VaultMatchType,
                            now: Date) throws(EraserKitError) -> VaultItem {
        let existing = try vault.items(originalID: id.rawValue).first { $0.coolingOff == nil || $0.coolingOff?.status == .pending }
        guard let removed = try library.restorable(id) else {
            if let existing { return existing }  // Removed after the copy, before the mark.
            throw .library(.notFound(id))
        }
        if let existing {
            _ = try library.removeForVault(id)
            return existing
        }
        let contents = try library.contentsURL(of: id)
        let asset = removed.asset
        let modified = removed.modificationDate
        let metadata = VaultItemMetadata(
            originalPath: asset.path, originalName: (asset.path as NSString).lastPathComponent,
            capturedAt: asset.captureDate.date, modifiedAt: modified,
            location: asset.location.map { VaultLocation(latitude: $0.latitude, longitude: $0.longitude) },
            extra: [Self.removedMetadataKey: try Self.json(removed)])
        let item = try vault.add(file: contents, item: VaultItemInput(
            originalID: id.rawValue, type: asset.mediaType == .photo ? .photo : .video, matchType: matchType,
            source: .cameraRoll, metadata: metadata), now: now)
        _ = try library.removeForVault(id)
        return item
    }

    /// Copies the event's original VEVENT text into the Vault (unless an interrupted apply already
    /// did), then takes the event out of its calendar — only while it is still exactly those bytes,
    /// so a crash in between leaves it in both places, never in neither. A copy of an older
    /// version (the event was edited after an interrupted apply) stays in the Vault and the
    /// current version is vaulted too.
    private func vaultEvent(_ id: EventID, calendar: any CalendarStore, matchType: VaultMatchType,
                            now: Date) throws(EraserKitError) -> VaultItem {
        let copies = try vault.items(originalID: id.rawValue).filter { $0.coolingOff?.status != .deleted }
        guard try calendar.event(id) != nil else {
            if let copy = copies.first { return copy }  // Removed after the copy, before the mark.
            throw .calendar(.notFound(id))
        }
        let original = try calendar.original(id)
        for copy in copies where copy.type == .calendar {
            if try vault.contents(copy.id) == original.original {
                _ = try calendar.remove(id, expecting: original.original)
                return copy
            }
        }
        var stored = original
        stored.original = []
        let metadata = VaultItemMetadata(
            originalPath: original.event.calendar, originalName: "\(original.event.title).ics", capturedAt: original.event.start,
            title: original.event.title, extra: [Self.removedMetadataKey: try Self.json(stored)])
        let item = try vault.add(bytes: original.original, item: VaultItemInput(
            originalID: id.rawValue, type: .calendar, matchType: matchType, source: .calendar, metadata: metadata), now: now)
        _ = try calendar.remove(id, expecting: original.original)
        return item
    }

    /// `value` as JSON text.
    static func json(_ value: some Encodable) throws(EraserKitError) -> String {
        do {
            return String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        } catch {
            throw .vault(.invalidInput("cannot encode \(type(of: value)): \(error)"))
        }
    }

    /// Decodes the JSON text `text` as `type`.
    static func decode<T: Decodable>(_ type: T.Type, _ text: String?, item: VaultItemID) throws(EraserKitError) -> T {
        guard let text else { throw .vault(.corrupted(what: "vault item \(item)", reason: "it has no restore record")) }
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw .vault(.corrupted(what: "vault item \(item)", reason: "its restore record does not parse: \(error)"))
        }
    }
}
