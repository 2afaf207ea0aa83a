import Foundation
import GRDB

/// One scan as the Vault's `scan_history` remembers it (figures only, nothing personal).
public struct VaultScanRecord: Sendable, Equatable, Identifiable {
    public var id: String
    public var startedAt: Date
    /// When the scan finished, or nil while it runs (or if it never finished).
    public var completedAt: Date?
    public var totalScanned: Int?
    public var totalMatched: Int?
    public var totalVaulted: Int?
    public var totalDeleted: Int?

    /// A scan record with the given figures.
    public init(id: String, startedAt: Date, completedAt: Date? = nil, totalScanned: Int? = nil,
                totalMatched: Int? = nil, totalVaulted: Int? = nil, totalDeleted: Int? = nil) {
        self.id = id
        self.startedAt = startedAt
        self.completedAt = completedAt
        self.totalScanned = totalScanned
        self.totalMatched = totalMatched
        self.totalVaulted = totalVaulted
        self.totalDeleted = totalDeleted
    }
}

extension Vault {
    /// Records a scan, or updates the record with the same id (a scan is recorded when it starts
    /// and again when it completes).
    /// - Throws: `VaultError.invalidInput` for an empty id or a negative figure, `.database`.
    public func recordScan(_ scan: VaultScanRecord) throws(EraserKitError) {
        guard !scan.id.isEmpty else { throw .vault(.invalidInput("the scan id is empty")) }
        let figures = [scan.totalScanned, scan.totalMatched, scan.totalVaulted, scan.totalDeleted].compactMap { $0 }
        guard figures.allSatisfy({ $0 >= 0 }) else { throw .vault(.invalidInput("a scan total is negative")) }
        let record = ScanHistoryRecord(id: scan.id, startedAt: VaultDates.text(scan.startedAt),
                                       completedAt: scan.completedAt.map(VaultDates.text),
                                       totalScanned: scan.totalScanned, totalMatched: scan.totalMatched,
                                       totalVaulted: scan.totalVaulted, totalDeleted: scan.totalDeleted)
        try write("record scan \(scan.id)") { db in try record.save(db) }
    }

    /// The recorded scans, newest first.
    public func history() throws(EraserKitError) -> [VaultScanRecord] {
        let records = try read("read the scan history") { db in
            try ScanHistoryRecord.order(ScanHistoryRecord.Columns.startedAt.desc, ScanHistoryRecord.Columns.id.desc).fetchAll(db)
        }
        var scans: [VaultScanRecord] = []
        for record in records {
            let what = "scan \(record.id)"
            scans.append(VaultScanRecord(
                id: record.id, startedAt: try VaultDates.date(record.startedAt, what: what),
                completedAt: try record.completedAt.map { (text) throws(EraserKitError) in try VaultDates.date(text, what: what) },
                totalScanned: record.totalScanned, totalMatched: record.totalMatched,
                totalVaulted: record.totalVaulted, totalDeleted: record.totalDeleted))
        }
        return scans
    }
}
