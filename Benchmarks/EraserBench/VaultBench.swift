// `kindred-eraser-bench vault [ITEMS]` (scripts/bench-eraser-vault): the seed's Vault targets —
// open under 1 s, listing 500 items under 2 s.
//
// Fills a Vault with ITEMS photos (16 KiB each, metadata with a path, name, dates and a place),
// then, five rounds each, times a cold `Vault.open` (a new instance: keyset unwrapped, database
// opened, leftovers checked) and `list()` (every row's metadata decrypted). The baseline, in the
// same run: opening the same `vault.db` with GRDB and reading every `vault_items` row as stored,
// unencrypted columns and sealed metadata alike, without decrypting anything. The secure store is
// in memory: the Linux passphrase's Argon2id (scripts/bench-argon2) stands in for Face ID on iOS
// and is not part of the Vault's own cost. The OS page cache is warm (same process, same files).
import EraserKit
import Foundation
import GRDB
import KindredClient

enum VaultBench {
    static func run(items: Int) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("kindred-eraser-vault-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        let profile = root.appendingPathComponent("profile")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let store = InMemorySecureStore()
        let notifier = InMemoryLocalNotifier()
        let vault = try Vault.setUp(profileDirectory: profile, secureStore: store, notifier: notifier)
        var generator = SystemRandomNumberGenerator()
        let fill = try await seconds {
            for index in 0..<items {
                let bytes = (0..<16_384).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let metadata = VaultItemMetadata(
                    originalPath: "DCIM/\(100 + index / 200)APPLE/IMG_\(index).JPG", originalName: "IMG_\(index).JPG",
                    capturedAt: Date(timeIntervalSince1970: 1_650_000_000 + Double(index) * 3_600),
                    modifiedAt: Date(timeIntervalSince1970: 1_650_000_000 + Double(index) * 3_600),
                    location: VaultLocation(latitude: 41.0 + Double(index) / 1e4, longitude: 29.0))
                _ = try vault.add(bytes: bytes, item: VaultItemInput(
                    originalID: "asset-\(index)", type: .photo, matchType: .face, source: .cameraRoll, metadata: metadata))
            }
        }
        print(String(format: "filled a Vault with %d items in %.1f s", items, fill))

        var opens: [Double] = [], lists: [Double] = [], baselines: [Double] = []
        var listed = 0, rows = 0
        for _ in 0..<5 {
            var opened: Vault?
            opens.append(try await seconds { opened = try Vault.open(profileDirectory: profile, secureStore: store, notifier: notifier) })
            guard let opened else { continue }
            lists.append(try await seconds { listed = try opened.list().count })
            baselines.append(try await seconds { rows = try plainRows(profile.appendingPathComponent("vault/vault.db")) })
        }
        guard listed == items, rows == items else {
            print("MISMATCH: listed \(listed), rows \(rows), expected \(items)")
            exit(1)
        }
        let open = median(opens), list = median(lists), baseline = median(baselines)
        print(String(format: "baseline (GRDB open + read %d rows as stored, nothing decrypted): %.1f ms", rows, baseline * 1000))
        print(String(format: "Vault.open, cold instance: %.1f ms; target < 1 s: %@", open * 1000, open < 1 ? "met" : "MISSED"))
        print(String(format: "list() of %d items: %.1f ms; target < 2 s: %@", listed, list * 1000, list < 2 ? "met" : "MISSED"))
        print(String(format: "open + list: %.1f ms = %.1fx baseline (median of 5)", (open + list) * 1000, (open + list) / baseline))
        print(String(format: "peak memory: %.0f MiB", peakMiB()))
    }

    /// Opens `vault.db` read-only and reads every `vault_items` row, each column touched.
    static func plainRows(_ database: URL) throws -> Int {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: database.path, configuration: configuration)
        return try queue.read { db in
            var count = 0
            var bytes = 0
            let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM vault_items ORDER BY created_at DESC")
            while let row = try cursor.next() {
                count += 1
                for column in row.columnNames {
                    let value: DatabaseValue = row[column]
                    if case .blob(let data) = value.storage { bytes += data.count }
                    if case .string(let text) = value.storage { bytes += text.utf8.count }
                }
            }
            return bytes >= 0 ? count : 0
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
