import Foundation
import GRDB

extension Vault {
    /// Puts items in the Cooling Off bin: each gets a `pending` entry to be destroyed
    /// `CoolingOffSchedule.days` after `now`, and the batch one reminder on day 6 ("Tomorrow,
    /// these items will be gone forever…"), scheduled with the `LocalNotifier` in the same
    /// transaction (a refused schedule adds nothing). The items stay in the Vault, viewable and
    /// exportable, until the check destroys them.
    /// - Parameters:
    ///   - ids: the items, at least one, each in the Vault and not already waiting.
    ///   - now: when the user chose "Delete".
    /// - Returns: the new entries, in the order of `ids`.
    /// - Throws: `VaultError.invalidInput` for no ids or a repeated id, `.notFound`,
    ///   `.inCoolingOff` for an item already waiting, `.notifier`, `.database`.
    @discardableResult
    public func deleteLater(_ ids: [VaultItemID], now: Date = Date()) throws(EraserKitError) -> [CoolingOffEntry] {
        guard !ids.isEmpty else { throw .vault(.invalidInput("no items to delete")) }
        guard Set(ids).count == ids.count else { throw .vault(.invalidInput("an item is listed twice")) }
        let deleteAfter = schedule.deleteAfter(start: now)
        let remindAt = schedule.remindAt(start: now)
        let reminderID = "eraser.cooling-off.\(UUID().uuidString.lowercased())"
        let records = ids.map { id in
            CoolingOffRecord(id: UUID().uuidString.lowercased(), vaultItemID: id.rawValue,
                             deleteAfter: VaultDates.text(deleteAfter), reminded: false,
                             status: CoolingOffStatus.pending.rawValue, createdAt: VaultDates.text(now),
                             resolvedAt: nil, reminderID: reminderID)
        }
        let notifier = notifier
        try binLock.withLock { _ throws(EraserKitError) in try write("put items in the Cooling Off bin") { db in
            for record in records {
                let id = record.vaultItemID ?? ""
                guard try VaultItemRecord.exists(db, key: id) else { throw EraserKitError.vault(.notFound(id)) }
                let waiting = try CoolingOffRecord
                    .filter(CoolingOffRecord.Columns.vaultItemID == id
                        && CoolingOffRecord.Columns.status == CoolingOffStatus.pending.rawValue)
                    .fetchCount(db)
                if waiting > 0 { throw EraserKitError.vault(.inCoolingOff(id)) }
                try record.insert(db)
            }
            try notifier.schedule(id: reminderID, at: remindAt, title: CoolingOffSchedule.reminderTitle,
                                  body: CoolingOffSchedule.reminderBody)
        } }
        var entries: [CoolingOffEntry] = []
        for record in records { entries.append(try entry(from: record)) }
        return entries
    }

    /// Puts one item in the Cooling Off bin (see `deleteLater(_:now:)` for a batch).
    @discardableResult
    public func deleteLater(_ id: VaultItemID, now: Date = Date()) throws(EraserKitError) -> CoolingOffEntry {
        let entries = try deleteLater([id], now: now)
        return entries[0]
    }

    /// Takes an item out of the Cooling Off bin: its entry becomes `restored`, the item stays in
    /// the Vault, and the batch's reminder is cancelled once no item of the batch is waiting.
    /// - Returns: the restored entry.
    /// - Throws: `VaultError.notFound`, `.notInCoolingOff`, `.notifier`, `.database`.
    @discardableResult
    public func restoreFromCoolingOff(_ id: VaultItemID, now: Date = Date()) throws(EraserKitError) -> CoolingOffEntry {
        let notifier = notifier
        let record = try binLock.withLock { _ throws(EraserKitError) in try write("restore item \(id)") { db -> CoolingOffRecord in
            guard try VaultItemRecord.exists(db, key: id.rawValue) else { throw EraserKitError.vault(.notFound(id.rawValue)) }
            guard var record = try CoolingOffRecord
                .filter(CoolingOffRecord.Columns.vaultItemID == id.rawValue
                    && CoolingOffRecord.Columns.status == CoolingOffStatus.pending.rawValue)
                .fetchOne(db) else {
                throw EraserKitError.vault(.notInCoolingOff(id.rawValue))
            }
            record.status = CoolingOffStatus.restored.rawValue
            record.resolvedAt = VaultDates.text(now)
            try record.update(db)
            try Self.cancelReminderIfUnused(record.reminderID, db: db, notifier: notifier)
            return record
        } }
        return try entry(from: record)
    }

    /// The items waiting in the Cooling Off bin, soonest first.
    public func coolingOff() throws(EraserKitError) -> [CoolingOffEntry] {
        try entries(status: .pending)
    }

    /// Every Cooling Off entry, waiting or settled, oldest deadline first.
    public func coolingOffHistory() throws(EraserKitError) -> [CoolingOffEntry] {
        try entries(status: nil)
    }

    private func entries(status: CoolingOffStatus?) throws(EraserKitError) -> [CoolingOffEntry] {
        let records = try read("list the Cooling Off bin") { db in
            var request = CoolingOffRecord.order(CoolingOffRecord.Columns.deleteAfter, CoolingOffRecord.Columns.id)
            if let status { request = request.filter(CoolingOffRecord.Columns.status == status.rawValue) }
            return try request.fetchAll(db)
        }
        var entries: [CoolingOffEntry] = []
        for record in records { entries.append(try entry(from: record)) }
        return entries
    }

    /// Cancels the reminder `reminderID` when no entry still waiting shares it.
    static func cancelReminderIfUnused(_ reminderID: String?, db: Database, notifier: any LocalNotifier) throws {
        guard let reminderID else { return }
        let waiting = try CoolingOffRecord
            .filter(CoolingOffRecord.Columns.reminderID == reminderID
                && CoolingOffRecord.Columns.status == CoolingOffStatus.pending.rawValue)
            .fetchCount(db)
        if waiting == 0 { try notifier.cancel(id: reminderID) }
    }
}
