import Crypto
import Foundation
import GRDB
import KindredCrypto
import KindredTestSupport
@testable import SoulMateKit
import Testing

@Suite struct LocalMessageStoreTests {
    @Test func messagesRoundTripThroughAReopenedFile() throws {
        let file = try Fixtures.fileStore()
        let store = file.store
        let messages = [
            Fixtures.message("m1", "Merhaba aşkım 💜", seconds: 1),
            Fixtures.message("m2", "😍🫶", seconds: 2, direction: .outgoing, type: .emoji),
            Fixtures.message("m3", "https://media.giphy.com/media/x/giphy.gif#gif-id=x", seconds: 3, type: .gif),
            Fixtures.message("m4", "sır", seconds: 4, type: .secret),
            Fixtures.message("m5", "", seconds: 5, direction: .outgoing, type: .heartbeat),
        ]
        #expect(try store.insert(messages) == 5)
        let reopened = try LocalMessageStore(path: file.path, key: file.key)
        for message in messages {
            #expect(try reopened.message(id: message.id) == message)
            #expect(try reopened.contains(id: message.id))
        }
        #expect(try reopened.message(id: "nope") == nil)
        #expect(try reopened.contains(id: "nope") == false)
        #expect(try reopened.count(chatID: Fixtures.chatID) == 5)
        #expect(try reopened.newest(chatID: Fixtures.chatID).map(\.id) == ["m5", "m4", "m3", "m2", "m1"])
        let secret = try #require(try reopened.message(id: "m4"))
        #expect(secret.isSecret && secret.isHidden)
        #expect(try reopened.message(id: "m1")?.isSecret == false)
    }

    @Test func theFileIsOwnerOnlyAndHoldsNoMessageText() throws {
        let file = try Fixtures.fileStore()
        let store = file.store
        try store.insert([Fixtures.message("m1", "unmistakable-plaintext-marker-ğüş")])
        try store.insertUndecryptable(id: "u1", chatID: Fixtures.chatID, senderID: Fixtures.bob, recipientID: Fixtures.alice,
                                      sentAt: Fixtures.base, envelope: "UNMISTAKABLEENVELOPEMARKER0000000000000000000=", reason: "no key")
        #expect((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int) == 0o600)
        let bytes = try file.bytes()
        #expect(bytes.range(of: Data("unmistakable-plaintext-marker".utf8)) == nil)
        #expect(bytes.range(of: Data("UNMISTAKABLEENVELOPEMARKER".utf8)) == nil)
        // Metadata stays plaintext, by design (docs/soulmate-device.md, "Threat model").
        #expect(bytes.range(of: Data(Fixtures.bob.utf8)) != nil)
    }

    @Test func insertIsIdempotentAndOneTransaction() throws {
        let store = try LocalMessageStore.inMemory()
        let first = [Fixtures.message("a", "1", seconds: 1), Fixtures.message("b", "2", seconds: 2), Fixtures.message("a", "dup", seconds: 9)]
        #expect(try store.insert(first) == 2, "a repeated id inside one batch is stored once")
        #expect(try store.insert([Fixtures.message("b", "changed?"), Fixtures.message("c", "3", seconds: 3)]) == 1)
        #expect(try store.message(id: "b")?.payload?.value == "2", "an already stored id is left as it is")
        #expect(try store.message(id: "a")?.payload?.value == "1")
        #expect(try store.insert([]) == 0)
        // One bad message fails the batch before anything is written.
        #expect(throws: SoulMateKitError.emptyMessage(kind: .text)) {
            try store.insert([Fixtures.message("d", "4"), Fixtures.message("e", "")])
        }
        #expect(throws: SoulMateKitError.self) { try store.insert([Fixtures.message("has space", "x")]) }
        #expect(try store.contains(id: "d") == false)
        #expect(try store.count(chatID: Fixtures.chatID) == 3)
    }

    @Test func aLargeBatchIsStoredAtOnce() throws {
        let store = try LocalMessageStore.inMemory()
        let batch = (0..<2_000).map { Fixtures.message("m\($0)", "message \($0)", seconds: Double($0)) }
        #expect(try store.insert(batch) == 2_000)
        #expect(try store.count(chatID: Fixtures.chatID) == 2_000)
        #expect(try store.newest(chatID: Fixtures.chatID, limit: 1).first?.id == "m1999")
    }

    @Test func pagesAreNewestFirstWithKeysetCursors() throws {
        let store = try LocalMessageStore.inMemory()
        // 130 messages; every five share a millisecond, so ties are ordered by id.
        var messages = (0..<130).map { Fixtures.message(String(format: "id%03d", ($0 * 37) % 130), "m\($0)", seconds: Double($0 / 5)) }
        messages += (0..<20).map { Fixtures.message("other\($0)", "x", seconds: Double($0), chatID: "someone_else") }
        try store.insert(messages.shuffled())
        let expected = messages.filter { $0.chatID == Fixtures.chatID }
            .sorted { ($0.sentAt, $0.id) > ($1.sentAt, $1.id) }.map(\.id)
        var paged: [String] = []
        var cursor: MessageCursor?
        repeat {
            let page = try store.newest(chatID: Fixtures.chatID, limit: 50, before: cursor)
            paged += page.map(\.id)
            cursor = page.count == 50 ? page.last?.cursor : nil
        } while cursor != nil
        #expect(paged == expected)
        #expect(try store.newest(chatID: Fixtures.chatID, limit: 3, before: MessageCursor(sentAt: Fixtures.base, id: "zzz")).count == 3)
        #expect(try store.newest(chatID: Fixtures.chatID, before: MessageCursor(sentAt: Fixtures.base, id: "")).isEmpty)
        #expect(throws: SoulMateKitError.self) { try store.newest(chatID: Fixtures.chatID, limit: 0) }
        #expect(throws: SoulMateKitError.self) { try store.newest(chatID: Fixtures.chatID, limit: 1001) }
    }

    @Test(arguments: ["newest page", "page before", "upload queue", "undecryptable"])
    func queriesSearchAnIndexInsteadOfScanning(query: String) throws {
        let (sql, arguments, index): (String, StatementArguments, String) = switch query {
        case "newest page": (LocalMessageStore.newestPageSQL, ["c", 50], "local_messages_chat_sent")
        case "page before": (LocalMessageStore.pageBeforeSQL, ["c", 1, 1, "x", 50], "local_messages_chat_sent")
        case "upload queue": (LocalMessageStore.pendingUploadsSQL, [5, 100], "local_messages_upload")
        default: (LocalMessageStore.undecryptableSQL, ["c"], "local_messages_upload")
        }
        let file = try Fixtures.fileStore()
        try file.store.insert([Fixtures.message("a", "1")])
        let plan = try DatabaseQueue(path: file.path).read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments)
                .map { $0["detail"] as String? ?? "" }.joined(separator: "\n")
        }
        #expect(plan.contains("USING INDEX \(index)"), "\(plan)")
        #expect(!plan.contains("SCAN m"), "\(plan)")
    }

    @Test func deleteChatWipesOnlyThatChatAndLeavesNoTraceInTheFile() throws {
        let file = try Fixtures.fileStore()
        let store = file.store
        try store.insert((0..<40).map { Fixtures.message("gone-\($0)", "bye \($0)", seconds: Double($0), type: .secret) })
        try store.insert([Fixtures.message("kept-1", "hi", chatID: "a_b")])
        try store.markOpened(id: "gone-1")
        try store.recordAttempt(id: "gone-2", reason: "x")
        #expect(try store.deleteChat(chatID: Fixtures.chatID) == 40)
        #expect(try store.count(chatID: Fixtures.chatID) == 0)
        #expect(try store.count(chatID: "a_b") == 1)
        #expect(try store.deleteChat(chatID: Fixtures.chatID) == 0)
        let sideRows = try DatabaseQueue(path: file.path).read { db in
            try Int.fetchOne(db, sql: "SELECT (SELECT COUNT(*) FROM local_message_opened) + (SELECT COUNT(*) FROM local_message_failures)")
        }
        #expect(sideRows == 0)
        let bytes = try file.bytes()
        #expect(bytes.range(of: Data("gone-1".utf8)) == nil, "secure_delete and the checkpoint leave no deleted id in the file")
        #expect(bytes.range(of: Data("kept-1".utf8)) != nil)
    }
}
