import Foundation
import KindredClient

/// How far this device got in driving its couple's encryption migration (v0 → v1 → v2), kept
/// in the profile's secure store (`closer.migration`) after every step, so a run that stops
/// (a crash, a lost connection) continues where it was when started again.
public struct EncryptionMigrationProgress: Sendable, Equatable, Codable {
    /// The couple the progress belongs to (a new couple starts afresh).
    public var coupleId: String
    /// Whether this device's start (the wrap upload) reached the server.
    public var started: Bool
    /// The dates whose plaintext answer of this account is rewritten into `enc:v1:`, oldest first.
    public var rewritten: [String]
    /// Whether this account's part is complete on the server.
    public var completed: Bool

    /// A fresh record for `coupleId`.
    public init(coupleId: String, started: Bool = false, rewritten: [String] = [], completed: Bool = false) {
        self.coupleId = coupleId
        self.started = started
        self.rewritten = rewritten
        self.completed = completed
    }

    /// The record kept in `store`, nil when there is none.
    /// - Throws: `CloserKitError.secureStore` when the store or the entry cannot be read.
    public static func load(from store: any SecureStore) throws(CloserKitError) -> EncryptionMigrationProgress? {
        guard let bytes = try secureStoreCall({ () throws(SecureStoreError) in try store.read(.encryptionMigration) }) else { return nil }
        do {
            return try JSONDecoder().decode(EncryptionMigrationProgress.self, from: Data(bytes))
        } catch {
            throw .secureStore("the encryption-migration progress is unreadable")
        }
    }

    /// Keeps the record in `store` (replacing the previous one).
    public func save(in store: any SecureStore) throws(CloserKitError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let bytes: [UInt8]
        do {
            bytes = Array(try encoder.encode(self))
        } catch {
            throw .secureStore("the encryption-migration progress cannot be encoded")
        }
        try secureStoreCall { () throws(SecureStoreError) in try store.write(.encryptionMigration, bytes) }
    }
}

extension SecureStoreItem {
    /// The progress of the encryption migration this device drives (`EncryptionMigrationProgress`).
    public static let encryptionMigration = SecureStoreItem("closer.migration")
}
