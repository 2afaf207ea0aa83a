import KindredCrypto
@testable import SoulMateKit
import Testing

@Suite struct SoulMateNotificationTests {
    static let key = try! SoulMateChatKey(keyBytes: Array(0..<32))
    static let tr = SoulMateStrings(locale: "tr-TR")
    static let en = SoulMateStrings(locale: "en-US")

    static func push(_ payload: ChatPayload, sender: String = Fixtures.bob) throws -> [String: String] {
        ["envelope": try key.seal(payload), "senderId": sender, "messageId": "m-1", "keyVersion": "2"]
    }

    static func preview(_ data: [String: String], strings: SoulMateStrings = en, name: String? = nil) -> SoulMateNotification.Preview {
        SoulMateNotification.decrypt(payload: data, keyLookup: { $0 == Fixtures.bob ? key : nil }, strings: strings, senderName: name)
    }

    @Test func aTextMessageIsShownDecrypted() throws {
        let preview = Self.preview(try Self.push(ChatPayload(type: .text, value: "Akşam yemeğine geliyor musun?")), strings: Self.tr, name: "Bora")
        #expect(preview.title == "Bora")
        #expect(preview.body == "Akşam yemeğine geliyor musun?")
        #expect(!preview.isGeneric && preview.messageID == "m-1" && preview.senderID == Fixtures.bob && preview.keyVersion == "2")
        let long = Self.preview(try Self.push(ChatPayload(type: .text, value: String(repeating: "ğ", count: 500))))
        #expect(long.body.count == SoulMateNotification.maximumBodyLength && long.body.hasSuffix("…"))
        #expect(long.title == "SoulMate")
    }

    @Test func secretsStayHiddenAndOtherKindsGetALine() throws {
        let secret = Self.preview(try Self.push(ChatPayload(type: .secret, value: "do not show")), strings: Self.tr)
        #expect(secret.body == "Sana gizli bir mesaj gönderdi 🤫")
        #expect(!secret.body.contains("do not show") && !secret.title.contains("do not show"))
        #expect(secret.payload?.type == .secret)
        #expect(Self.preview(try Self.push(ChatPayload(type: .heartbeat, value: ""))).body == "Sent you a heartbeat 💓")
        #expect(Self.preview(try Self.push(ChatPayload(type: .gif, value: "https://g.example/a.gif"))).body == "Sent a GIF")
        #expect(Self.preview(try Self.push(ChatPayload(type: .emoji, value: "😍"))).body == "😍")
    }

    @Test func anythingWrongGivesTheGenericPreview() throws {
        var modified = try Base64.decode(try Self.key.seal(ChatPayload(type: .text, value: "x")), alphabet: .standard)
        modified[modified.count - 1] ^= 1
        let cases: [[String: String]] = [
            [:],
            ["senderId": Fixtures.bob, "messageId": "m-1"],
            try Self.push(ChatPayload(type: .text, value: "no key"), sender: "stranger"),
            ["envelope": try Self.key.seal(ChatPayload(type: .text, value: "x")), "messageId": "m-1"],
            ["envelope": Base64.encode(modified, alphabet: .standard), "senderId": Fixtures.bob],
            ["envelope": "%%%not base64", "senderId": Fixtures.bob],
            ["envelope": "", "senderId": Fixtures.bob],
            ["envelope": String(repeating: "A", count: 40_000), "senderId": Fixtures.bob],
        ]
        for data in cases {
            let preview = Self.preview(data, strings: Self.tr)
            #expect(preview.isGeneric)
            #expect(preview.title == "SoulMate" && preview.body == "Yeni mesaj")
        }
    }
}
