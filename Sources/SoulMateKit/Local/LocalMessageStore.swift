import Crypto
import Foundation
import GRDB
import KindredCrypto

/// SoulMate's local-first message store: the seed's `local_messages` table in a GRDB (SQLite)
/// database on the phone, every payload value encrypted at rest under a 32-byte local key the
/// caller keeps in the secure store.
///
/// Messages are written here first (outgoing: `pendingUpload`), then sent; received envelopes
/// are decrypted and stored, then acknowledged to the relay. Writes of many messages go in one
/// transaction through cached statements. Schema, encryption and threat model:
/// docs/soulmate-device.md.
///
/// The store is a value over a thread-safe GRDB connection (a `DatabasePool` in WAL mode for a
/// file): copies share it, and any thread or task may use it.
public struct LocalMessageStore: Sendable {
    /// The database's file name (the seed's `Application Support/LocalMessageQueue/local_messages.sqlite`).
    public static let fileName = "local_messages.sqlite"
    /// The upload tries after which `pendingUploads` stops returning a failed message.
    public static let defaultMaxAttempts = 5
    /// The largest page `newest` and `pendingUploads` return.
    public static let maximumPageSize = 1000

    /// The database file, or `nil` for an in-memory store.
    public let path: String?
    let database: any DatabaseWriter
    let cipher: LocalPayloadCipher

    /// Opens (creating and migrating) the store at `path` with its local key.
    /// - Parameters:
    ///   - path: the database file; its folder must exist. The file and its `-wal`/`-shm`
    ///     companions are made owner-only (0600).
    ///   - key: the 256-bit local key (from the secure store; `LocalMessageStore.generateKey()` makes one).
    /// - Throws: `SoulMateKitError.invalidInput` for a key that is not 256 bits, `.storeOpen` when
    ///   the file cannot be opened or migrated, `.wrongKey` when the store was created with another key.
    public init(path: String, key: SymmetricKey) throws(SoulMateKitError) {
        try Self.checkKey(key)
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: Self.configuration())
        } catch {
            throw .storeOpen(path: path, reason: "\(error)")
        }
        try self.init(database: pool, path: path, key: key)
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            do {
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
            } catch {
                throw .storeOpen(path: path, reason: "cannot make \(file) owner-only: \(error)")
            }
        }
    }

    /// Opens the store at `path` with the local key's raw bytes.
    /// - Parameters:
    ///   - path: the database file.
    ///   - keyBytes: the 32 key bytes.
    /// - Throws: as `init(path:key:)`.
    public init(path: String, keyBytes: [UInt8]) throws(SoulMateKitError) {
        guard keyBytes.count == 32 else { throw .invalidInput("the local key must be 32 bytes, not \(keyBytes.count)") }
        try self.init(path: path, key: SymmetricKey(data: keyBytes))
    }

    /// A store in memory, gone when the last copy is released: for tests and previews.
    /// - Parameter key: the 256-bit local key.
    /// - Throws: `SoulMateKitError.invalidInput` for a key that is not 256 bits.
    public static func inMemory(key: SymmetricKey = SymmetricKey(size: .bits256)) throws(SoulMateKitError) -> LocalMessageStore {
        try checkKey(key)
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(configuration: configuration())
        } catch {
            throw .storeOpen(path: ":memory:", reason: "\(error)")
        }
        return try LocalMessageStore(database: queue, path: nil, key: key)
    }

    /// 32 fresh random bytes for a new local key, to keep in the secure store.
    public static func generateKey() -> [UInt8] { SecureRandom.bytes(32) }

    private init(database: any DatabaseWriter, path: String?, key: SymmetricKey) throws(SoulMateKitError) {
        self.database = database
        self.path = path
        cipher = LocalPayloadCipher(key: key)
        let location = path ?? ":memory:"
        do {
            try LocalMessageSchema.migrator.migrate(database)
        } catch {
            throw .storeOpen(path: location, reason: "cannot migrate: \(error)")
        }
        let cipher = cipher
        let matches: Bool
        do {
            matches = try database.write { db -> Bool in
                let statement = try db.cachedStatement(sql: "SELECT value FROM local_store_meta WHERE name = 'key-check'")
                if let stored = try Data.fetchOne(statement) {
                    return cipher.opensKeyCheck(stored)
                }
                try db.execute(sql: "INSERT INTO local_store_meta (name, value) VALUES ('key-check', ?)",
                               arguments: [try cipher.sealKeyCheck()])
                return true
            }
        } catch {
            throw .storeOpen(path: location, reason: "cannot read the key check: \(error)")
        }
        guard matches else { throw .wrongKey }
    }

    private static func checkKey(_ key: SymmetricKey) throws(SoulMateKitError) {
        guard key.bitCount == 256 else { throw .invalidInput("the local key must be 256 bits, not \(key.bitCount)") }
    }

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.label = "soulmate-local"
        // Foreign keys are on by default (the side tables cascade with their message). Deleted
        // rows are overwritten with zeros, so an unpaired chat's metadata does not linger in
        // free pages of the file.
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA secure_delete = ON")
        }
        return configuration
    }

    // MARK: - Error mapping

    /// Runs `body` in a read transaction; a GRDB error becomes `.storeRead`.
    func read<T>(_ what: String, _ body: (Database) throws -> T) throws(SoulMateKitError) -> T {
        do {
            return try database.read(body)
        } catch let error as SoulMateKitError {
            throw error
        } catch {
            throw .storeRead("\(what): \(error)")
        }
    }

    /// Runs `body` in a write transaction (rolled back on any error); a GRDB error becomes `.storeWrite`.
    func write<T>(_ what: String, _ body: (Database) throws -> T) throws(SoulMateKitError) -> T {
        do {
            return try database.write(body)
        } catch let error as SoulMateKitError {
            throw error
        } catch {
            throw .storeWrite("\(what): \(error)")
        }
    }
}
