import Crypto
import Foundation
import GRDB
import KindredClient
import KindredCrypto

/// The GRDB database of this device's pending one-time answer keys (`closer-pending.sqlite` in
/// the profile). The one-time keys themselves are sealed under a 32-byte key kept in the secure
/// store, so the database file alone reveals nothing an attacker could not read on the server.
public struct PendingKeyStore: Sendable {
    /// The database's file name in the profile folder.
    public static let fileName = "closer-pending.sqlite"

    let database: DatabaseQueue
    let sealingKey: SymmetricKey

    /// Opens (creating and migrating) the store at `url`, with its sealing key from `secureStore`.
    /// - Throws: `CloserKitError.pendingStore` / `.secureStore`.
    public init(url: URL, secureStore: any SecureStore) throws(CloserKitError) {
        var key = try secureStoreCall { () throws(SecureStoreError) in try secureStore.read(.pendingKeysKey) }
        if key == nil {
            let fresh = SecureRandom.bytes(32)
            try secureStoreCall { () throws(SecureStoreError) in try secureStore.write(.pendingKeysKey, fresh) }
            key = fresh
        }
        guard let key, key.count == 32 else { throw .secureStore("the pending-keys key is not 32 bytes") }
        sealingKey = SymmetricKey(data: key)
        do {
            var configuration = Configuration()
            configuration.label = "closer-pending"
            database = try DatabaseQueue(path: url.path, configuration: configuration)
            try Self.migrator.migrate(database)
        } catch {
            throw .pendingStore("cannot open \(url.path): \(error)")
        }
        // Owner-only, like every file of a profile (the folder is 0700 as well).
        for path in [url.path, url.path + "-wal", url.path + "-shm"] where FileManager.default.fileExists(atPath: path) {
            do {
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
            } catch {
                throw .pendingStore("cannot make \(path) owner-only: \(error)")
            }
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1_pending_answer_key") { db in
            try db.create(table: "pending_answer_key") { table in
                table.column("coupleId", .text).notNull()
                table.column("dateKey", .text).notNull()
                table.column("questionId", .text).notNull()
                table.column("sealedKey", .blob).notNull()
                table.column("payload", .text).notNull()
                table.column("commitment", .text).notNull()
                table.column("commitmentSeal", .text).notNull()
                table.column("stage", .text).notNull().check { ["sealed", "uploaded", "released"].contains($0) }
                table.column("createdAt", .integer).notNull()
                table.column("updatedAt", .integer).notNull()
                table.primaryKey(["coupleId", "dateKey"])
            }
        }
        return migrator
    }

    /// Stores a freshly sealed answer (stage `sealed`) before anything is uploaded.
    /// - Throws: `CloserKitError.pendingStore`; `.alreadyAnswered` when the date already has a row.
    @discardableResult
    public func insert(coupleId: String, dateKey: String, questionId: String, sealed: SealedAnswer.Sealed,
                       now: Date = Date()) throws(CloserKitError) -> PendingAnswerKey {
        let millis = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let row = PendingAnswerKey(
            coupleId: coupleId, dateKey: dateKey, questionId: questionId,
            sealedKey: try seal(sealed.oneTimeKey, coupleId: coupleId, dateKey: dateKey),
            payload: sealed.payload, commitment: sealed.commitment, commitmentSeal: sealed.commitmentSeal,
            stage: .sealed, createdAt: millis, updatedAt: millis)
        do {
            try database.write { db in
                if try PendingAnswerKey.fetchOne(db, key: ["coupleId": coupleId, "dateKey": dateKey]) != nil {
                    throw CloserKitError.alreadyAnswered
                }
                try row.insert(db)
            }
        } catch let error as CloserKitError {
            throw error
        } catch {
            throw .pendingStore("cannot store the answer key: \(error)")
        }
        return row
    }

    /// The row for a date, or `nil`.
    public func find(coupleId: String, dateKey: String) throws(CloserKitError) -> PendingAnswerKey? {
        do {
            return try database.read { db in try PendingAnswerKey.fetchOne(db, key: ["coupleId": coupleId, "dateKey": dateKey]) }
        } catch {
            throw .pendingStore("cannot read the answer keys: \(error)")
        }
    }

    /// Every row of a couple, newest date first.
    public func all(coupleId: String) throws(CloserKitError) -> [PendingAnswerKey] {
        do {
            return try database.read { db in
                try PendingAnswerKey.filter(PendingAnswerKey.Columns.coupleId == coupleId)
                    .order(PendingAnswerKey.Columns.dateKey.desc).fetchAll(db)
            }
        } catch {
            throw .pendingStore("cannot read the answer keys: \(error)")
        }
    }

    /// Moves a row to `stage` (never backwards).
    public func advance(coupleId: String, dateKey: String, to stage: PendingAnswerKey.Stage, now: Date = Date()) throws(CloserKitError) {
        let millis = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let order: [PendingAnswerKey.Stage] = [.sealed, .uploaded, .released]
        do {
            try database.write { db in
                guard var row = try PendingAnswerKey.fetchOne(db, key: ["coupleId": coupleId, "dateKey": dateKey]) else { return }
                guard let from = order.firstIndex(of: row.stage), let to = order.firstIndex(of: stage), to > from else { return }
                row.stage = stage
                row.updatedAt = millis
                try row.update(db)
            }
        } catch {
            throw .pendingStore("cannot update the answer key: \(error)")
        }
    }

    /// Removes every row of a couple (leaving the couple).
    public func removeAll(coupleId: String) throws(CloserKitError) {
        do {
            _ = try database.write { db in try PendingAnswerKey.filter(PendingAnswerKey.Columns.coupleId == coupleId).deleteAll(db) }
        } catch {
            throw .pendingStore("cannot remove the answer keys: \(error)")
        }
    }

    /// The one-time key of a row.
    /// - Throws: `CloserKitError.pendingStore` when the sealed key does not open (another store's key, a modified row).
    public func oneTimeKey(of row: PendingAnswerKey) throws(CloserKitError) -> [UInt8] {
        do {
            let box = try AES.GCM.SealedBox(combined: row.sealedKey)
            return Array(try AES.GCM.open(box, using: sealingKey, authenticating: Self.associatedData(row.coupleId, row.dateKey)))
        } catch {
            throw .pendingStore("the one-time key for \(row.dateKey) does not open with this device's store key")
        }
    }

    private func seal(_ key: [UInt8], coupleId: String, dateKey: String) throws(CloserKitError) -> [UInt8] {
        do {
            let box = try AES.GCM.seal(key, using: sealingKey, authenticating: Self.associatedData(coupleId, dateKey))
            guard let combined = box.combined else { throw CloserKitError.pendingStore("AES-GCM gave no combined form") }
            return Array(combined)
        } catch {
            throw .pendingStore("cannot seal the one-time key: \(error)")
        }
    }

    private static func associatedData(_ coupleId: String, _ dateKey: String) -> [UInt8] {
        Array("closer-pending-key-v1|\(coupleId)|\(dateKey)".utf8)
    }
}
