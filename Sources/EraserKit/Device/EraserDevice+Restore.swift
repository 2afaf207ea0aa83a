import Foundation

/// What `EraserDevice.tick` did.
public struct TickReport: Sendable, Equatable {
    /// The Cooling Off check's figures (items destroyed, reminders, what still waits).
    public var coolingOff: CoolingOffReport
    /// The notifications that fell due and were delivered.
    public var notifications: [LocalNotification]
}

extension EraserDevice {
    /// Puts a vaulted photo, video or event back where it was — a file byte-identical at its
    /// original path with its modification time, or the VEVENT text byte-exact in its calendar —
    /// then removes it from the Vault (in that order: a crash in between leaves it in both).
    /// - Returns: the restored item as it was in the Vault.
    /// - Throws: `VaultError.notFound`, `.inCoolingOff` for an item waiting to be deleted (restore
    ///   it from the bin first), `.corrupted` for an item without a restore record, the library's
    ///   `.pathTaken`, the calendar's errors.
    @discardableResult
    public func restore(_ id: VaultItemID) throws(EraserKitError) -> VaultItem {
        let item = try vault.item(id)
        if item.coolingOff?.status == .pending { throw .vault(.inCoolingOff(id.rawValue)) }
        let settings = try settings()
        let record = item.metadata.extra[Self.removedMetadataKey]
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
            try library.restore(removed, from: file)
        case .calendar:
            var removed = try Self.decode(RemovedEvent.self, record, item: id)
            removed.original = try vault.contents(id)
            guard let calendar = try calendar(settings) else { throw .scan(.missingDependency("a calendar")) }
            try calendar.restore(removed)
        case .message:
            throw .vault(.invalidInput("a message export has no place to go back to"))
        }
        try vault.remove(id)
        return item
    }

    /// The background task (seed §4.3): destroys what has waited 7 days in the Cooling Off bin,
    /// then delivers the local notifications that are due (the day-6 reminder).
    public func tick(now: Date = Date()) throws(EraserKitError) -> TickReport {
        let report = try vault.runCoolingOffCheck(now: now)
        return TickReport(coolingOff: report, notifications: try notifier.fire(now: now))
    }
}
