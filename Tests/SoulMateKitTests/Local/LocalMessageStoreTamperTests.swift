import Crypto
import Foundation
import GRDB
import KindredCrypto
import KindredTestSupport
@testable import SoulMateKit
import Testing

/// Someone with the database file edits it: every change to a value or to the metadata it is
/// bound to is caught when the row is read, as a typed error naming the row.
@Suite struct LocalMessageStoreTamperTests {
    static func twoMessages() throws -> StoreFile {
        let file = try Fixtures.fileStore()
        try file.store.insert([
            Fixtures.message("m1", "first", seconds: 1),
            Fixtures.message("m2", "second", seconds: 2, direction: .outgoing),
        ])
        return file
    }

    @Test func aModifiedCiphertextIsCorrupt() throws {
        let file = try Self.twoMessages()
        try file.tamper("""
            UPDATE local_messages SET payload_value = substr(payload_value, 1, 20)
                || CASE WHEN substr(payload_value, 21, 1) = X'00' THEN X'01' ELSE X'00' END || substr(payload_value, 22)
            WHERE id = 'm1'
            """)  // byte 21 always changes (a random nonce may already hold 0x00 there)
        let error = #expect(throws: SoulMateKitError.self) { try file.store.message(id: "m1") }
        guard case .corruptRow(let id, _) = error else { Issue.record("expected corruptRow, got \(String(describing: error))"); return }
        #expect(id == "m1")
        #expect(throws: SoulMateKitError.self) { try file.store.newest(chatID: Fixtures.chatID) }
        #expect(try file.store.message(id: "m2")?.payload?.value == "second")
    }

    @Test func swappedValuesDoNotOpenInTheOtherRow() throws {
        let file = try Self.twoMessages()
        let values = try DatabaseQueue(path: file.path).read { db in
            try Row.fetchAll(db, sql: "SELECT id, payload_value FROM local_messages ORDER BY id").map { (($0[0] as String?) ?? "", ($0[1] as Data?) ?? Data()) }
        }
        #expect(values.map(\.0) == ["m1", "m2"])
        try file.tamper("UPDATE local_messages SET payload_value = ? WHERE id = 'm1'", [values[1].1])
        try file.tamper("UPDATE local_messages SET payload_value = ? WHERE id = 'm2'", [values[0].1])
        for id in ["m1", "m2"] {
            #expect(throws: SoulMateKitError.corruptRow(id: id, reason: "the payload does not decrypt under this row's metadata")) {
                try file.store.message(id: id)
            }
        }
    }

    @Test(arguments: [
        "UPDATE local_messages SET sender_id = recipient_id, recipient_id = sender_id, direction = 'outgoing' WHERE id = 'm1'",
        "UPDATE local_messages SET sent_at = sent_at + 1 WHERE id = 'm1'",
        "UPDATE local_messages SET payload_type = 'secret', is_secret = 1 WHERE id = 'm1'",
        "UPDATE local_messages SET chat_id = 'x_y' WHERE id = 'm1'",
        "UPDATE local_messages SET payload_value = X'00' WHERE id = 'm1'",
    ])
    func editedMetadataIsCorrupt(sql: String) throws {
        let file = try Self.twoMessages()
        try file.tamper(sql)
        #expect(throws: SoulMateKitError.corruptRow(id: "m1", reason: "the payload does not decrypt under this row's metadata")) {
            try file.store.message(id: "m1")
        }
    }

    @Test func aValueOutsideTheSchemaIsCorruptNotACrash() throws {
        let file = try Self.twoMessages()
        try file.tamper("PRAGMA ignore_check_constraints = ON; UPDATE local_messages SET direction = 'sideways', sent_at = 'soon' WHERE id = 'm1'")
        #expect(throws: SoulMateKitError.self) { try file.store.message(id: "m1") }
    }

    @Test func anotherKeyDoesNotOpenTheStore() throws {
        let file = try Self.twoMessages()
        #expect(throws: SoulMateKitError.wrongKey) { try LocalMessageStore(path: file.path, key: SymmetricKey(size: .bits256)) }
        #expect(throws: SoulMateKitError.self) { try LocalMessageStore(path: file.path, keyBytes: Array(repeating: 1, count: 31)) }
        #expect(throws: SoulMateKitError.self) { try LocalMessageStore.inMemory(key: SymmetricKey(size: .bits128)) }
        // The same key in another form still opens it.
        let sameKey = file.key.withUnsafeBytes { Array($0) }
        #expect(try LocalMessageStore(path: file.path, keyBytes: sameKey).count(chatID: Fixtures.chatID) == 2)
    }

    @Test func aFileThatIsNotADatabaseFailsToOpen() throws {
        let folder = try KindredTestSupport.TemporaryDirectory()
        let path = try folder.file("junk.sqlite", Array(repeating: 0x42, count: 4096))
        let error = #expect(throws: SoulMateKitError.self) { try LocalMessageStore(path: path, key: SymmetricKey(size: .bits256)) }
        guard case .storeOpen = error else { Issue.record("expected storeOpen, got \(String(describing: error))"); return }
    }
}
