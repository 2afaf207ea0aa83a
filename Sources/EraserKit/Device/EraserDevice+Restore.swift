import Foundation

/// What `EraserDevice.tick` did.
public struct TickReport: Sendable, Equatable {
    /// The Cooling Off check's figures (items destroyed, reminders, what still waits).
    public var coolingOff: CoolingOffReport
    /// The notifications that fell due and were delivered.
    public var notifications: [LocalNotification]
}

/// What `EraserDevice.restore` did.
public struct RestoreReport: Sendable, Equatable {
    /// The restored item as it was in the Vault (it is no longer there).
    public var item: VaultItem
    /// The photo, video or event the item was taken from (its `originalID`).
    public var original: ScanItem
    /// The photo, video or event as it is now: the same id with the folder library and `.ics`
    /// files, a new one with PhotoKit and EventKit (which add the item again). The current scan's
    /// result, if it had one, is under this id now.
    public var restoredAs: ScanItem
    /// Whether the current scan had the item among its results (it is now a result under
    /// `restoredAs`, decided "keep").
    public var inReview: Bool
}

extension EraserDevice {
    /// Puts a vaulted photo, video or event back where it was — a file byte-identical at its
    /// original path with its modification time, or the VEVENT text byte-exact in its calendar —
    /// then removes it from the Vault (in that order: a crash in between leaves it in both).
    ///
    /// The current scan's review follows: when the item is one of its results, the result (its
    /// findings, cached face descriptors and decision) moves to the id the library or calendar
    /// gives the item now, and its decision becomes a "keep" not yet carried out — the user took
    /// it back, so it is neither pending nor a stale, carried-out "vault" or "delete" for an id
    /// that may name nothing any more; `decide` can still change it.
    /// - Returns: the item as it was in the Vault and the id it has now.
    /// - Throws: `VaultError.notFound`, `.inCoolingOff` for an item waiting to be deleted (restore
    ///   it from the bin first), `.corrupted` for an item without a restore record, the library's
    ///   `.pathTaken`, the calendar's errors.
    @discardableResult
    public func restore(_ id: VaultItemID) throws(EraserKitError) -> RestoreReport {
        let item = try vault.item(id)
        if item.coolingOff?.status == .pending { throw .vault(.inCoolingOff(id.rawValue)) }
        let settings = try settings()
        let record = item.metadata.extra[Self.removedMetadataKey]
        let original: ScanItem
        let restoredAs: ScanItem
        switch item.type {
        case .photo, .video:
            let removed = try Self.decode(RemovedAsset.self, record, item: id)
            let library = try library(settings)
            let folder = profile.appendingPathComponent("restore-\(UUID().uuidString.lowercased())")
            defer { try? FileManager.default.removeItem(at: folder) }
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw .vault(.fileSystem(path: folder.path, reason: error.localizedDescription))
            }
            let file = try vault.export(id, into: folder)
            original = .asset(removed.asset.id)
            restoredAs = .asset(try library.restore(removed, from: file))
        case .calendar:
            var removed = try Self.decode(RemovedEvent.self, record, item: id)
            removed.original = try vault.contents(id)
            guard let calendar = try calendar(settings) else { throw .scan(.missingDependency("a calendar")) }
            original = .event(removed.event.id)
            restoredAs = .event(try calendar.restore(removed))
        case .message:
            throw .vault(.invalidInput("a message export has no place to go back to"))
        }
        let inReview = try scanStore.restored(original, as: restoredAs)
        try vault.remove(id)
        return RestoreReport(item: item, original: original, restoredAs: restoredAs, inReview: inReview)
    }

    /// The background task (seed §4.3): destroys what has waited 7 days in the Cooling Off bin,
    /// then delivers the local notifications that are due (the day-6 reminder).
    public func tick(now: Date = Date()) throws(EraserKitError) -> TickReport {
        let report = try vault.runCoolingOffCheck(now: now)
        return TickReport(coolingOff: report, notifications: try notifier.fire(now: now))
    }
}
