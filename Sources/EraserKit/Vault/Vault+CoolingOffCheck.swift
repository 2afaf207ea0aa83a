import Foundation
import GRDB

extension Vault {
    /// The Cooling Off check (the seed's day-7 background task; the CLI's `tick`): destroys every
    /// `pending` item whose `deleteAfter` is at or before `now` — media file, thumbnail and item
    /// row — and marks its entry `deleted` (kept, without the item, as a record of the deletion).
    /// Restored entries are never touched, and nothing in the bin is destroyed by any other path.
    ///
    /// Idempotent and crash-safe: each item's files go first, then its rows in one transaction,
    /// so a run stopped half-way leaves entries still pending and past due, which the next run
    /// finishes. It also marks entries `reminded` once their reminder is no longer pending.
    /// - Returns: what was destroyed and what still waits.
    /// - Throws: `VaultError.fileSystem`, `.database`, `.notifier`; items destroyed before the
    ///   failure stay destroyed, the rest wait for the next run.
    @discardableResult
    public func runCoolingOffCheck(now: Date = Date()) throws(EraserKitError) -> CoolingOffReport {
        try binLock.withLock { _ throws(EraserKitError) in try checkCoolingOff(now: now) }
    }

    private func checkCoolingOff(now: Date) throws(EraserKitError) -> CoolingOffReport {
        let nowText = VaultDates.text(now)
        let due = try read("find due Cooling Off entries") { db in
            try CoolingOffRecord
                .filter(CoolingOffRecord.Columns.status == CoolingOffStatus.pending.rawValue
                    && CoolingOffRecord.Columns.deleteAfter <= nowText)
                .order(CoolingOffRecord.Columns.deleteAfter, CoolingOffRecord.Columns.id)
                .fetchAll(db)
        }
        var report = CoolingOffReport()
        for entry in due {
            if let id = try destroy(entry, now: now) { report.destroyed.append(id) }
        }
        report.destroyed.sort()
        report.reminded = try markReminded(now: now)
        let waiting = try read("count waiting Cooling Off entries") { db in
            try CoolingOffRecord.filter(CoolingOffRecord.Columns.status == CoolingOffStatus.pending.rawValue)
                .order(CoolingOffRecord.Columns.deleteAfter).fetchAll(db)
        }
        report.pending = waiting.count
        if let first = waiting.first {
            report.nextDeadline = try VaultDates.date(first.deleteAfter, what: "Cooling Off entry \(first.id)")
        }
        return report
    }

    /// Destroys the item of one due entry: files, then (in one transaction) the item row and the
    /// entry's status. Returns the item's id, or nil when the entry had no item left.
    private func destroy(_ entry: CoolingOffRecord, now: Date) throws(EraserKitError) -> VaultItemID? {
        let itemID = entry.vaultItemID.map(VaultItemID.init(rawValue:))
        if let itemID {
            let record = try read("read item \(itemID)") { db in try VaultItemRecord.fetchOne(db, key: itemID.rawValue) }
            try destroyFiles(of: record, id: itemID)
            try faults.afterDestroyingFiles(itemID)
        }
        let notifier = notifier
        try write("settle Cooling Off entry \(entry.id)") { db in
            // The bin lock keeps restores out while the check runs, so the entry is still pending.
            guard var current = try CoolingOffRecord.fetchOne(db, key: entry.id),
                  current.status == CoolingOffStatus.pending.rawValue else { return }
            if let itemID { _ = try VaultItemRecord.deleteOne(db, key: itemID.rawValue) }
            current.vaultItemID = nil
            current.status = CoolingOffStatus.deleted.rawValue
            current.resolvedAt = VaultDates.text(now)
            try current.update(db)
            try Self.cancelReminderIfUnused(current.reminderID, db: db, notifier: notifier)
        }
        return itemID
    }

    /// Marks `reminded` on waiting entries whose reminder time has passed and whose reminder
    /// the notifier no longer holds (it was delivered). Returns how many were marked.
    private func markReminded(now: Date) throws(EraserKitError) -> Int {
        let scheduled = Set(try notifier.pending().map(\.id))
        let schedule = schedule
        return try write("mark reminded Cooling Off entries") { db in
            let waiting = try CoolingOffRecord
                .filter(CoolingOffRecord.Columns.status == CoolingOffStatus.pending.rawValue
                    && CoolingOffRecord.Columns.reminded == false)
                .fetchAll(db)
            var marked = 0
            for var record in waiting {
                guard let reminderID = record.reminderID, !scheduled.contains(reminderID),
                      let deleteAfter = try? VaultDates.date(record.deleteAfter, what: record.id),
                      schedule.remindAt(deleteAfter: deleteAfter) <= now else { continue }
                record.reminded = true
                try record.update(db)
                marked += 1
            }
            return marked
        }
    }
}
