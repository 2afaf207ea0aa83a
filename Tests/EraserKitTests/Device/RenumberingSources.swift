import Foundation
import Synchronization

@testable import EraserKit

/// The ids a renumbering double shows: the wrapped store's id behind a prefix (`pk-<id>`), so a
/// result found through the double is told apart from one found by opening the folder or file
/// directly; after a restore, a new id (`pk-restored-1`, …) and the old one names nothing — as
/// PhotoKit and EventKit do.
final class RenumberedIDs: Sendable {
    private struct State {
        var aliases: [String: String] = [:]  // shown → wrapped, for restored items
        var shown: [String: String] = [:]  // wrapped → shown, for restored items
        var retired: Set<String> = []
        var restores = 0
    }

    let prefix: String
    private let state = Mutex(State())

    init(prefix: String) { self.prefix = prefix }

    /// The id shown for the wrapped store's `id`.
    func shown(_ id: String) -> String { state.withLock { $0.shown[id] } ?? prefix + id }

    /// The wrapped store's id behind `id`, or `nil` when `id` names nothing (retired or foreign).
    func wrapped(_ id: String) -> String? {
        state.withLock { state in
            if state.retired.contains(id) { return nil }
            if let alias = state.aliases[id] { return alias }
            return id.hasPrefix(prefix) && !id.hasPrefix(prefix + "restored-") ? String(id.dropFirst(prefix.count)) : nil
        }
    }

    /// Gives the restored item (the wrapped store's `id`) a new shown id and retires `old`.
    func renumber(_ old: String, restoredAs id: String) -> String {
        state.withLock { state in
            state.restores += 1
            let new = "\(prefix)restored-\(state.restores)"
            state.retired.insert(old)
            state.aliases[new] = id
            state.shown[id] = new
            return new
        }
    }
}

/// A `PhotoLibrary` over a `FolderPhotoLibrary` that numbers its assets as PhotoKit would: ids of
/// its own, and a new id for an asset restored from the Vault. With `reportedModification`, it
/// reports that as every asset's modification date (PhotoKit's `PHAsset.modificationDate` is not
/// the time of the file `contentsURL` writes), so a test can tell the library's date from the disk's.
final class RenumberingLibrary: PhotoLibrary {
    let base: FolderPhotoLibrary
    let ids = RenumberedIDs(prefix: "pk-")
    let reportedModification: Date?

    init(base: FolderPhotoLibrary, reportedModification: Date? = nil) {
        self.base = base
        self.reportedModification = reportedModification
    }

    private func shown(_ asset: PhotoAsset) -> PhotoAsset {
        var asset = asset
        asset.id = AssetID(rawValue: ids.shown(asset.id.rawValue))
        return asset
    }

    private func shown(_ removed: RemovedAsset) -> RemovedAsset {
        var removed = removed
        removed.asset = shown(removed.asset)
        if let reportedModification { removed.modificationDate = reportedModification }
        return removed
    }

    private func wrapped(_ id: AssetID) -> AssetID? { ids.wrapped(id.rawValue).map(AssetID.init(rawValue:)) }

    private func existing(_ id: AssetID) throws(EraserKitError) -> AssetID {
        guard let wrapped = wrapped(id) else { throw .library(.notFound(id)) }
        return wrapped
    }

    var access: LibraryAccess { base.access }
    func assetCount() throws(EraserKitError) -> Int { try base.assetCount() }
    func assets(offset: Int, limit: Int) throws(EraserKitError) -> [PhotoAsset] {
        try base.assets(offset: offset, limit: limit).map(shown)
    }
    func asset(_ id: AssetID) throws(EraserKitError) -> PhotoAsset? {
        guard let wrapped = wrapped(id) else { return nil }
        return try base.asset(wrapped).map(shown)
    }
    func contentsURL(of id: AssetID) throws(EraserKitError) -> URL { try base.contentsURL(of: try existing(id)) }
    func restorable(_ id: AssetID) throws(EraserKitError) -> RemovedAsset? {
        guard let wrapped = wrapped(id) else { return nil }
        return try base.restorable(wrapped).map(shown)
    }
    func hide(_ id: AssetID) throws(EraserKitError) { try base.hide(try existing(id)) }
    func delete(_ id: AssetID) throws(EraserKitError) { try base.delete(try existing(id)) }
    func removeForVault(_ id: AssetID) throws(EraserKitError) -> RemovedAsset { shown(try base.removeForVault(try existing(id))) }

    /// Restores through the folder library, then gives the asset a new id.
    func restore(_ removed: RemovedAsset, from contents: URL?) throws(EraserKitError) -> AssetID {
        let old = removed.asset.id
        guard let wrapped = wrapped(old) else { throw .library(.notFound(old)) }
        var inner = removed
        inner.asset.id = wrapped
        let id = try base.restore(inner, from: contents)
        return AssetID(rawValue: ids.renumber(old.rawValue, restoredAs: id.rawValue))
    }
}

/// A `CalendarStore` over an `ICSCalendarStore` that numbers its events as EventKit would: ids
/// of its own, and a new id for an event restored from the Vault.
final class RenumberingCalendar: CalendarStore {
    let base: ICSCalendarStore
    let ids = RenumberedIDs(prefix: "ek-")

    init(base: ICSCalendarStore) { self.base = base }

    private func shown(_ id: EventID) -> EventID { EventID(rawValue: ids.shown(id.rawValue)) }

    private func shown(_ event: CalendarEvent) -> CalendarEvent {
        var event = event
        event.id = shown(event.id)
        return event
    }

    private func shown(_ removed: RemovedEvent) -> RemovedEvent {
        var removed = removed
        removed.event = shown(removed.event)
        return removed
    }

    private func wrapped(_ id: EventID) -> EventID? { ids.wrapped(id.rawValue).map(EventID.init(rawValue:)) }

    private func existing(_ id: EventID) throws(EraserKitError) -> EventID {
        guard let wrapped = wrapped(id) else { throw .calendar(.notFound(id)) }
        return wrapped
    }

    func occurrences(in range: DateInterval) throws(EraserKitError) -> [EventOccurrence] {
        try base.occurrences(in: range).map { occurrence in
            var occurrence = occurrence
            occurrence.eventID = shown(occurrence.eventID)
            occurrence.instanceID = occurrence.instanceID.map(shown)
            return occurrence
        }
    }
    func eventCount() throws(EraserKitError) -> Int { try base.eventCount() }
    func events(offset: Int, limit: Int) throws(EraserKitError) -> [CalendarEvent] {
        try base.events(offset: offset, limit: limit).map(shown)
    }
    func event(_ id: EventID) throws(EraserKitError) -> CalendarEvent? {
        guard let wrapped = wrapped(id) else { return nil }
        return try base.event(wrapped).map(shown)
    }
    func original(_ id: EventID) throws(EraserKitError) -> RemovedEvent { shown(try base.original(try existing(id))) }
    func remove(_ id: EventID, expecting expected: [UInt8]?) throws(EraserKitError) -> RemovedEvent {
        shown(try base.remove(try existing(id), expecting: expected))
    }

    /// Restores through the `.ics` store, then gives the event a new id.
    func restore(_ removed: RemovedEvent) throws(EraserKitError) -> EventID {
        let old = removed.event.id
        guard let wrapped = wrapped(old) else { throw .calendar(.notFound(old)) }
        var inner = removed
        inner.event.id = wrapped
        let id = try base.restore(inner)
        return EventID(rawValue: ids.renumber(old.rawValue, restoredAs: id.rawValue))
    }
}
