import KindredCrypto
@testable import SoulMateKit
import Testing

@Suite struct ChatContentTests {
    @Test func contentBuildsCheckedPayloads() throws {
        #expect(try ChatContent.text("  Merhaba aşkım 💜 \n").payload() == ChatPayload(type: .text, value: "Merhaba aşkım 💜"))
        #expect(try ChatContent.emoji("😍 🫶🏽 🇹🇷 ❤️ ❤ 1️⃣ 👩‍❤️‍👨").payload().type == .emoji)
        #expect(try ChatContent.secret("sır").payload() == ChatPayload(type: .secret, value: "sır"))
        #expect(try ChatContent.heartbeat.payload() == ChatPayload(type: .heartbeat, value: ""))
        let gif = try GIFLink(url: "https://media.giphy.com/media/abc/giphy.gif", id: "abc")
        #expect(try ChatContent.gif(gif).payload() == ChatPayload(type: .gif, value: "https://media.giphy.com/media/abc/giphy.gif#gif-id=abc"))
        let limit = String(repeating: "a", count: ChatPayload.maximumValueBytes)
        #expect(try ChatContent.text(limit).payload().value == limit)
    }

    @Test func badInputGetsTypedErrors() {
        #expect(throws: SoulMateKitError.emptyMessage(kind: .text)) { try ChatContent.text(" \n\t ").payload() }
        #expect(throws: SoulMateKitError.emptyMessage(kind: .secret)) { try ChatContent.secret("").payload() }
        #expect(throws: SoulMateKitError.emptyMessage(kind: .emoji)) { try ChatContent.emoji("  ").payload() }
        #expect(throws: SoulMateKitError.notEmoji) { try ChatContent.emoji("😍 ok").payload() }
        #expect(throws: SoulMateKitError.notEmoji) { try ChatContent.emoji("1").payload() }
        // 16 KiB is counted in UTF-8 bytes: 8,193 two-byte letters are over.
        #expect(throws: SoulMateKitError.messageTooLong(bytes: 16_386, limit: 16_384)) {
            try ChatContent.text(String(repeating: "ş", count: 8_193)).payload()
        }
    }

    @Test func receivedPayloadsParseBack() throws {
        #expect(try ChatContent(payload: ChatPayload(type: .text, value: "hi")) == .text("hi"))
        #expect(try ChatContent(payload: ChatPayload(type: .heartbeat, value: "")) == .heartbeat)
        #expect(try ChatContent(payload: ChatPayload(type: .emoji, value: "not checked")) == .emoji("not checked"))
        let parsed = try ChatContent(payload: ChatPayload(type: .gif, value: "https://g.example/x.gif#gif-id=x-1_2.3"))
        #expect(parsed == .gif(try GIFLink(url: "https://g.example/x.gif", id: "x-1_2.3")))
        #expect(throws: SoulMateKitError.emptyMessage(kind: .text)) { try ChatContent(payload: ChatPayload(type: .text, value: "")) }
        #expect(throws: SoulMateKitError.self) { try ChatContent(payload: ChatPayload(type: .gif, value: "not a url")) }
    }
}
