import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock between processes around a database's migration: two processes opening a
/// new profile at once (the app and its share extension, or two `kindred streaks inbox drain`)
/// would otherwise both see no migration applied and both create the tables, and the second
/// fails with "table … already exists". The lock is `flock(2)` on `<database>.migrate-lock`;
/// the kernel releases it if the process dies.
enum MigrationLock {
    /// Runs `body` holding the lock of the database at `path`.
    static func holding<T>(path: String, _ body: () throws -> T) throws -> T {
        let descriptor = open(path + ".migrate-lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot open \(path).migrate-lock: errno \(errno)"])
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw CocoaError(.fileLocking, userInfo: [NSLocalizedDescriptionKey: "cannot lock \(path).migrate-lock: errno \(errno)"])
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
