import Crypto
import Foundation
import GRDB
import KindredCrypto
import KindredTestSupport
@testable import SoulMateKit

/// Shared test data: two partners, their chat, and messages at known times.
enum Fixtures {
    static let alice = "0b0d7c8e-1f52-4a55-9a4e-3c3b1f0a9d11"
    static let bob = "7f3e2d1c-0b9a-4876-8543-210fedcba987"
    static let chatID = try! ChatID.make(alice, bob)
    /// 2026-02-14T12:00:00Z.
    static let base = Date(timeIntervalSince1970: 1_771_070_400)

    /// A message from Alice (outgoing) or Bob (incoming), `seconds` after `base`.
    static func message(_ id: String, _ text: String, seconds: Double = 0, direction: LocalMessage.Direction = .incoming,
                        chatID: String = Fixtures.chatID, type: ChatPayload.Kind = .text) -> LocalMessage {
        let incoming = direction == .incoming
        return LocalMessage(
            id: id, chatID: chatID, senderID: incoming ? bob : alice, recipientID: incoming ? alice : bob,
            sentAt: base.addingTimeInterval(seconds), payload: ChatPayload(type: type, value: text), direction: direction,
            uploadState: incoming ? .uploaded : .pendingUpload, createdAt: base.addingTimeInterval(seconds + 0.5))
    }

    /// A store in a fresh temporary folder.
    static func fileStore() throws -> StoreFile { try StoreFile() }
}

/// A store file in a temporary folder, removed with this object (every use of `path` keeps it alive).
final class StoreFile {
    let folder: TemporaryDirectory
    let path: String
    let key: SymmetricKey
    let store: LocalMessageStore

    init() throws {
        folder = try TemporaryDirectory()
        path = folder.url.appendingPathComponent(LocalMessageStore.fileName).path
        key = SymmetricKey(size: .bits256)
        store = try LocalMessageStore(path: path, key: key)
    }

    /// The database file and its write-ahead log, as bytes.
    func bytes() throws -> Data {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        if let wal = try? Data(contentsOf: URL(fileURLWithPath: path + "-wal")) { bytes.append(wal) }
        return bytes
    }

    /// Runs SQL on the file through a second connection, as an attacker with the file would.
    func tamper(_ sql: String, _ arguments: StatementArguments = []) throws {
        try DatabaseQueue(path: path).write { db in try db.execute(sql: sql, arguments: arguments) }
    }
}
