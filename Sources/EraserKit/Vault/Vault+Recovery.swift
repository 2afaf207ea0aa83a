import Foundation
import GRDB

/// What `Vault.open` cleaned up after an interrupted add or removal.
public struct VaultRecoveryReport: Sendable, Equatable {
    /// Temporary files of interrupted writes that were deleted (paths relative to the vault folder).
    public var removedTemporaryFiles: [String]
    /// Encrypted files without a row that were deleted (an add that never finished, or a
    /// removal whose files outlived its rows).
    public var removedOrphans: [String]
    /// Items whose media file is missing and that no Cooling Off check is about to destroy:
    /// their bytes are lost (kept as rows, so the loss is visible).
    public var missingFiles: [VaultItemID]

    /// A report with the given findings.
    public init(removedTemporaryFiles: [String] = [], removedOrphans: [String] = [], missingFiles: [VaultItemID] = []) {
        self.removedTemporaryFiles = removedTemporaryFiles
        self.removedOrphans = removedOrphans
        self.missingFiles = missingFiles
    }
}

extension Vault {
    /// Deletes temporary files and encrypted files no row refers to, and lists rows whose file
    /// is missing. Runs at `open`, before anything else may write (one process per profile).
    static func recover(folder: URL, database: DatabasePool) throws(EraserKitError) -> VaultRecoveryReport {
        let (referenced, rows): (Set<String>, [(String, String?, Bool)])
        do {
            (referenced, rows) = try database.read { db in
                var referenced: Set<String> = []
                var rows: [(String, String?, Bool)] = []
                let records = try VaultItemRecord.fetchAll(db)
                let waiting = try Set(String.fetchAll(db, sql: """
                    SELECT vault_item_id FROM cooling_off WHERE status = 'pending' AND vault_item_id IS NOT NULL
                    """))
                for record in records {
                    if let path = record.filePath { referenced.insert(path) }
                    if let path = record.thumbnailPath { referenced.insert(path) }
                    rows.append((record.id, record.filePath, waiting.contains(record.id)))
                }
                return (referenced, rows)
            }
        } catch {
            throw .vault(.database("recovery: \(error)"))
        }
        var report = VaultRecoveryReport()
        for subfolder in ["media", "thumbnails"] {
            let url = folder.appendingPathComponent(subfolder)
            for name in try VaultFileIO.names(in: url).sorted() {
                let relative = "\(subfolder)/\(name)"
                if name.hasPrefix(".") && name.hasSuffix(VaultFileIO.temporarySuffix) {
                    try VaultFileIO.remove(url.appendingPathComponent(name))
                    report.removedTemporaryFiles.append(relative)
                } else if name.hasSuffix(".enc") && !referenced.contains(relative) {
                    try VaultFileIO.remove(url.appendingPathComponent(name))
                    report.removedOrphans.append(relative)
                }
            }
            if !report.removedTemporaryFiles.isEmpty || !report.removedOrphans.isEmpty {
                try VaultFileIO.syncFolder(url)
            }
        }
        for (id, path, waiting) in rows where !waiting {
            guard let path else { continue }
            if !FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path) {
                report.missingFiles.append(VaultItemID(rawValue: id))
            }
        }
        report.missingFiles.sort()
        return report
    }
}
