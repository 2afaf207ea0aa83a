import Foundation
import KindredCrypto
@testable import SoulMateKit
import Testing

/// The outgoing queue, undecryptable envelopes and secret messages.
@Suite struct LocalMessageStoreQueueTests {
    let store: LocalMessageStore
    init() throws { store = try LocalMessageStore.inMemory() }

    func outgoing(_ text: String, at seconds: Double) throws -> LocalMessage {
        try store.insertOutgoing(ChatContent.text(text).payload(), chatID: Fixtures.chatID, senderID: Fixtures.alice,
                                 recipientID: Fixtures.bob, sentAt: Fixtures.base.addingTimeInterval(seconds))
    }

    @Test func outgoingMessagesWaitUntilUploaded() throws {
        let first = try outgoing("one", at: 1)
        let second = try outgoing("two", at: 2)
        try store.insert([Fixtures.message("in-1", "incoming")])
        #expect(first.uploadState == .pendingUpload && first.direction == .outgoing)
        #expect(LocalMessage.isValidID(first.id) && first.id.count == 36 && first.id.dropFirst(14).first == "7")
        #expect(try store.pendingUploads().map(\.id) == [first.id, second.id])
        #expect(try store.markUploaded(ids: [first.id, "in-1", "unknown"]) == 1)
        #expect(try store.markUploaded(ids: [first.id]) == 0)
        #expect(try store.message(id: first.id)?.uploadState == .uploaded)
        #expect(try store.message(id: "in-1")?.uploadState == .uploaded)
        #expect(try store.pendingUploads().map(\.id) == [second.id])
        #expect(throws: SoulMateKitError.self) {
            try store.insertOutgoing(ChatPayload(type: .text, value: "again"), chatID: Fixtures.chatID, senderID: Fixtures.alice,
                                     recipientID: Fixtures.bob, id: first.id)
        }
    }

    @Test func failedUploadsAreRetriedUntilTheLimit() throws {
        let message = try outgoing("retry me", at: 1)
        #expect(try store.recordAttempt(id: message.id) == 1)
        try store.markFailed(id: message.id, reason: "HTTP 503")
        var stored = try #require(try store.message(id: message.id))
        #expect(stored.uploadState == .failed)
        #expect(stored.failure?.reason == "HTTP 503" && stored.failure?.attempts == 1 && stored.failure?.retryable == true)
        #expect(try store.pendingUploads().map(\.id) == [message.id], "failed but retryable")
        for expected in 2...5 { #expect(try store.recordAttempt(id: message.id) == expected) }
        #expect(try store.message(id: message.id)?.failure?.reason == "HTTP 503", "no new reason keeps the last one")
        #expect(try store.pendingUploads().isEmpty, "5 attempts reach the default limit")
        #expect(try store.pendingUploads(maxAttempts: 6).map(\.id) == [message.id])
        try store.markUploaded(ids: [message.id])
        stored = try #require(try store.message(id: message.id))
        #expect(stored.uploadState == .uploaded && stored.failure == nil)
        try store.markFailed(id: message.id, reason: "late")
        #expect(try store.message(id: message.id)?.uploadState == .uploaded, "an uploaded message stays uploaded")
    }

    @Test func aPermanentFailureIsNotRetried() throws {
        let message = try outgoing("refused", at: 1)
        try store.markFailed(id: message.id, reason: "invalid_envelope", retryable: false)
        #expect(try store.pendingUploads().isEmpty)
        #expect(try store.message(id: message.id)?.failure?.retryable == false)
    }

    @Test func queueOperationsCheckTheirMessage() throws {
        try store.insert([Fixtures.message("in-1", "incoming")])
        #expect(throws: SoulMateKitError.messageNotFound(id: "nope")) { try store.markFailed(id: "nope", reason: "x") }
        #expect(throws: SoulMateKitError.messageNotFound(id: "nope")) { try store.recordAttempt(id: "nope") }
        #expect(throws: SoulMateKitError.messageNotFound(id: "nope")) { try store.markOpened(id: "nope") }
        #expect(throws: SoulMateKitError.self) { try store.markFailed(id: "in-1", reason: "x") }
        #expect(throws: SoulMateKitError.self) { try store.markOpened(id: "in-1") }
        #expect(throws: SoulMateKitError.self) { try store.pendingUploads(limit: 0) }
    }

    @Test func undecryptableEnvelopesAreKeptAndReplacedAfterAKeyUpdate() throws {
        let oldKey = try SoulMateChatKey(keyBytes: Array(repeating: 1, count: 32))
        let envelope = try oldKey.seal(ChatPayload(type: .secret, value: "kept for later"))
        #expect(try store.insertUndecryptable(id: "u1", chatID: Fixtures.chatID, senderID: Fixtures.bob, recipientID: Fixtures.alice,
                                              sentAt: Fixtures.base, envelope: envelope, reason: "authenticationFailed"))
        #expect(try store.insertUndecryptable(id: "u1", chatID: Fixtures.chatID, senderID: Fixtures.bob, recipientID: Fixtures.alice,
                                              sentAt: Fixtures.base, envelope: envelope, reason: "again") == false)
        try store.insert([Fixtures.message("ok", "readable", seconds: 1)])
        let page = try store.newest(chatID: Fixtures.chatID)
        #expect(page.map(\.id) == ["ok", "u1"])
        #expect(page[1].content == .undecryptable(envelope: envelope))
        #expect(page[1].payload == nil && page[1].direction == .incoming && page[1].uploadState == .failed)
        #expect(try store.pendingUploads().isEmpty, "an incoming envelope is never uploaded")

        let kept = try store.undecryptable(chatID: Fixtures.chatID)
        #expect(kept.map(\.id) == ["u1"])
        #expect(kept[0].envelope == envelope && kept[0].failure?.reason == "authenticationFailed" && kept[0].failure?.attempts == 1)
        #expect(try store.recordAttempt(id: "u1", reason: "still the old key") == 2)

        let opened = try store.replaceUndecryptable(id: "u1", with: try oldKey.open(kept[0].envelope))
        #expect(opened.payload == ChatPayload(type: .secret, value: "kept for later"))
        #expect(opened.isSecret && opened.isHidden && opened.uploadState == .uploaded && opened.failure == nil)
        #expect(try store.message(id: "u1") == opened)
        #expect(try store.undecryptable(chatID: Fixtures.chatID).isEmpty)
        #expect(throws: SoulMateKitError.self) { try store.replaceUndecryptable(id: "u1", with: ChatPayload(type: .text, value: "x")) }
        #expect(throws: SoulMateKitError.messageNotFound(id: "zz")) {
            try store.replaceUndecryptable(id: "zz", with: ChatPayload(type: .text, value: "x"))
        }
    }

    @Test func secretMessagesStayHiddenUntilOpened() throws {
        try store.insert([Fixtures.message("s1", "psst", type: .secret), Fixtures.message("s2", "mine", direction: .outgoing, type: .secret)])
        #expect(try store.message(id: "s1")?.isHidden == true)
        #expect(try store.message(id: "s2")?.isHidden == false, "the sender sees their own secret")
        let openedAt = Fixtures.base.addingTimeInterval(60)
        #expect(try store.markOpened(id: "s1", now: openedAt) == openedAt)
        #expect(try store.markOpened(id: "s1", now: openedAt.addingTimeInterval(60)) == openedAt, "the first opening is kept")
        let opened = try #require(try store.message(id: "s1"))
        #expect(opened.openedAt == openedAt && !opened.isHidden)
    }
}
