@testable import CloserServer
import CloserAPI
import Foundation
import KindredTestSupport
import KindredServerCore
import Testing

/// The direct writes' JSON (`CloserAnswer+JSON.swift`: an answer, a list of keyboxes) is what the
/// generated server's `JSONEncoder` writes for the same value, byte for byte.
@Suite struct CloserAnswerJSONTests {
    @Test("an answer's JSON is JSONEncoder's for random text in every string field and random absent members")
    func randomAnswersMatchJSONEncoder() throws {
        let encoder = CloserDailyQuestionJSONTests.serverEncoder
        var random = SeededRandom(seed: 0x616e_7377)  // deterministic: a failing round replays
        for round in 0..<1_500 {
            let answer = random.answer(full: random.bool())
            let written = try answer.jsonBytes()
            let expected = Array(try encoder.encode(answer))
            #expect(written == expected, "round \(round): \(String(decoding: written, as: UTF8.self)) vs \(String(decoding: expected, as: UTF8.self))")
            if written != expected { break }
        }
    }

    @Test("a keybox list's JSON is JSONEncoder's for random keyboxes and absent, empty or present missing recipients")
    func randomReleaseKeyListsMatchJSONEncoder() throws {
        let encoder = CloserDailyQuestionJSONTests.serverEncoder
        var random = SeededRandom(seed: 0x6b65_7973)
        for round in 0..<1_000 {
            let list = random.releaseKeyList()
            let written = try list.jsonBytes()
            let expected = Array(try encoder.encode(list))
            #expect(written == expected, "round \(round): \(String(decoding: written, as: UTF8.self)) vs \(String(decoding: expected, as: UTF8.self))")
            if written != expected { break }
        }
    }

    @Test("every property of the answer, the keybox list and a device key is written: a property added to the contract fails here")
    func writerCoversEveryProperty() throws {
        var random = SeededRandom(seed: 5)
        let answer = random.answer(full: true)
        var list = random.releaseKeyList()
        list.keys = [random.releaseKey()]
        list.missingRecipients = [random.deviceKey()]
        // A property left nil would be absent from both documents and pass unseen.
        for value in [answer, list, list.keys[0], list.missingRecipients![0]] as [Any] {
            let empty = Mirror(reflecting: value).children.filter { child in
                let inner = Mirror(reflecting: child.value)
                return inner.displayStyle == .optional && inner.children.isEmpty
            }.map { $0.label ?? "?" }
            #expect(empty.isEmpty, "\(type(of: value)) properties not filled (fill them, and write them in jsonBytes()): \(empty)")
        }
        let encoder = CloserDailyQuestionJSONTests.serverEncoder
        #expect(try answer.jsonBytes() == Array(try encoder.encode(answer)))
        #expect(try list.jsonBytes() == Array(try encoder.encode(list)))
        let answerKeys = try #require(try JSONSerialization.jsonObject(with: Data(try answer.jsonBytes())) as? [String: Any]).keys.sorted()
        #expect(answerKeys.count == Mirror(reflecting: answer).children.count)
        let listObject = try #require(try JSONSerialization.jsonObject(with: Data(try list.jsonBytes())) as? [String: Any])
        #expect(listObject.keys.sorted() == ["keys", "missingRecipients"])
        let device = try #require((listObject["missingRecipients"] as? [[String: Any]])?.first)
        #expect(device.keys.sorted() == ["createdAt", "deviceId", "platform", "publicKey", "updatedAt", "userId"])
    }
}

extension SeededRandom {
    mutating func deviceKey() -> Components.Schemas.CloserDeviceKey {
        .init(
            userId: text(), deviceId: text(), publicKey: text(maxLength: 60),
            platform: Components.Schemas.CloserDeviceKey.PlatformPayload.allCases[below(5)], createdAt: date(), updatedAt: date()
        )
    }

    /// 0–3 keyboxes and absent, empty or present missing recipients.
    mutating func releaseKeyList() -> Components.Schemas.CloserReleaseKeyList {
        .init(
            keys: (0..<below(4)).map { _ in releaseKey() },
            missingRecipients: maybe { random in (0..<random.below(3)).map { _ in random.deviceKey() } }
        )
    }
}
