import Foundation
import GRDB

/// Opening vault.db, and running its transactions with GRDB's errors reported as `VaultError`.
enum VaultDatabase {
    /// Opens (creating and migrating) vault.db at `file`; the file and its WAL companions are
    /// owner-only (0600), and deleted rows are overwritten (`secure_delete`).
    /// - Throws: `VaultError.database` when it cannot be opened or migrated.
    static func open(_ file: URL) throws(EraserKitError) -> DatabasePool {
        var configuration = Configuration()
        configuration.label = "eraser-vault"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA secure_delete = ON")
        }
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: file.path, configuration: configuration)
            try VaultSchema.migrator.migrate(pool)
        } catch {
            throw .vault(.database("cannot open \(file.path): \(error)"))
        }
        for path in [file.path, file.path + "-wal", file.path + "-shm"] where FileManager.default.fileExists(atPath: path) {
            do {
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
            } catch {
                throw .vault(.fileSystem(path: path, reason: "cannot make it owner-only: \(error.localizedDescription)"))
            }
        }
        return pool
    }
}

extension Vault {
    /// Runs `body` in a read transaction; a GRDB error becomes `VaultError.database`.
    func read<T>(_ what: String, _ body: (Database) throws -> T) throws(EraserKitError) -> T {
        do {
            return try database.read(body)
        } catch let error as EraserKitError {
            throw error
        } catch {
            throw .vault(.database("\(what): \(error)"))
        }
    }

    /// Runs `body` in a write transaction, rolled back on any error; a GRDB error becomes
    /// `VaultError.database`, an `EraserKitError` thrown by `body` passes through.
    func write<T>(_ what: String, _ body: (Database) throws -> T) throws(EraserKitError) -> T {
        do {
            return try database.write(body)
        } catch let error as EraserKitError {
            throw error
        } catch {
            throw .vault(.database("\(what): \(error)"))
        }
    }
}
