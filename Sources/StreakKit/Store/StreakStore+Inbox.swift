import Foundation
import GRDB

/// What taking one share-extension inbox file did (`ShareInbox.drain`).
public enum InboxReceipt: Hashable, Sendable {
    /// The result was recorded; tiers first reached by it are listed.
    case added(GameResult, newlyUnlocked: [TierUnlock])
    /// The same share was already recorded (pasted in the app too): nothing changed.
    case duplicate(GameResult)
    /// The file holds no result StreakSync can record (the reason says why); it is kept aside.
    case rejected(reason: String)
    /// Another process (the app opened twice) took this file first: nothing changed here.
    case alreadyTaken

    /// The receipt's outcome as stored, or nil for `alreadyTaken`.
    var storedOutcome: String? {
        switch self {
        case .added: "added"
        case .duplicate: "duplicate"
        case .rejected: "rejected"
        case .alreadyTaken: nil
        }
    }
}

/// Why a dropped inbox file holds no result StreakSync can record.
public struct InboxRejection: Error, Hashable, Sendable, CustomStringConvertible {
    /// The reason, for people.
    public let reason: String

    /// A rejection with its reason.
    public init(_ reason: String) { self.reason = reason }

    /// The reason.
    public var description: String { reason }
}

/// The store's side of the share-extension inbox: a file is taken at most once, in the transaction
/// that records its result (`inbox_receipts`).
extension StreakStore {
    /// Takes inbox file `file`: unless a receipt for it exists, records `result` (or notes why there
    /// is none) and writes the receipt, in one transaction.
    /// - Parameters:
    ///   - file: the inbox file's name (unique: the extension names files with a UUID).
    ///   - result: the parsed result, or the reason the file holds none.
    ///   - now: the recording time.
    /// - Returns: what happened; `.alreadyTaken` when another process took the file first.
    /// - Throws: `.write`.
    public func receiveInboxFile(
        _ file: String, result: Result<GameResult, InboxRejection>, now: Date = Date()
    ) throws(StreakStoreError) -> InboxReceipt {
        let catalog = catalog
        return try write("taking inbox file \(file)") { db in
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM inbox_receipts WHERE file = ?)", arguments: [file]) == true {
                return .alreadyTaken
            }
            let receipt: InboxReceipt
            switch result {
            case .failure(let error):
                receipt = .rejected(reason: error.reason)
            case .success(let result):
                do {
                    let (stored, inserted) = try Self.insert(result, catalog: catalog, now: now, in: db)
                    if inserted {
                        receipt = .added(stored, newlyUnlocked: try Self.checkAchievements(catalog: catalog, now: now, in: db).newlyUnlocked)
                    } else {
                        receipt = .duplicate(stored)
                    }
                } catch let error as StreakStoreError {
                    guard case .invalidResult(_, let reason) = error else { throw error }
                    receipt = .rejected(reason: reason)
                }
            }
            let resultID: String? = switch receipt {
            case .added(let result, _), .duplicate(let result): result.id.rawValue
            default: nil
            }
            try db.execute(
                sql: "INSERT INTO inbox_receipts (file, outcome, result_id, received_at) VALUES (?, ?, ?, ?)",
                arguments: [file, receipt.storedOutcome, resultID, StoredDate.text(now)])
            return receipt
        }
    }

    /// Whether inbox file `file` was already taken (by this process or another).
    public func hasReceipt(forInboxFile file: String) throws(StreakStoreError) -> Bool {
        try read("reading inbox receipts") { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM inbox_receipts WHERE file = ?)", arguments: [file]) ?? false
        }
    }
}
