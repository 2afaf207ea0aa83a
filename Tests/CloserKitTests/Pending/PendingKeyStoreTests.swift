import CloserKit
import Foundation
import KindredClient
import KindredCrypto
import KindredTestSupport
import Testing

@Suite struct PendingKeyStoreTests {
    static func sealed(_ answer: String = "the lake house") throws -> SealedAnswer.Sealed {
        let context = try SealedAnswerContext(coupleId: "c1", questionId: "q1", userId: "u1")
        return try SealedAnswer.seal(answer: answer, context: context, coupleKeyset: .generateAES256GCM())
    }

    @Test func aRowIsWrittenSealedThenAdvancedAndSurvivesReopening() throws {
        let folder = try TemporaryDirectory()
        let secure = InMemorySecureStore()
        let url = folder.url.appendingPathComponent(PendingKeyStore.fileName)
        let sealed = try Self.sealed()
        do {
            let store = try PendingKeyStore(url: url, secureStore: secure)
            try store.insert(coupleId: "c1", dateKey: "2026-03-07", questionId: "q1", sealed: sealed,
                             now: Date(timeIntervalSince1970: 1_772_900_000))
            try store.advance(coupleId: "c1", dateKey: "2026-03-07", to: .uploaded)
        }
        let reopened = try PendingKeyStore(url: url, secureStore: secure)
        let row = try #require(try reopened.find(coupleId: "c1", dateKey: "2026-03-07"))
        #expect(row.stage == .uploaded)
        #expect(row.questionId == "q1")
        #expect(row.payload == sealed.payload)
        #expect(row.commitment == sealed.commitment)
        #expect(row.commitmentSeal == sealed.commitmentSeal)
        #expect(row.createdAt == 1_772_900_000_000)
        #expect(try reopened.oneTimeKey(of: row) == sealed.oneTimeKey)
        try reopened.advance(coupleId: "c1", dateKey: "2026-03-07", to: .sealed)  // never backwards
        #expect(try reopened.find(coupleId: "c1", dateKey: "2026-03-07")?.stage == .uploaded)
    }

    @Test func aSecondAnswerForTheSameDateIsRefused() throws {
        let folder = try TemporaryDirectory()
        let store = try PendingKeyStore(url: folder.url.appendingPathComponent("p.sqlite"), secureStore: InMemorySecureStore())
        try store.insert(coupleId: "c1", dateKey: "2026-03-07", questionId: "q1", sealed: try Self.sealed())
        #expect(throws: CloserKitError.alreadyAnswered) {
            try store.insert(coupleId: "c1", dateKey: "2026-03-07", questionId: "q1", sealed: try Self.sealed("other"))
        }
        try store.insert(coupleId: "c1", dateKey: "2026-03-08", questionId: "q2", sealed: try Self.sealed())
        #expect(try store.all(coupleId: "c1").map(\.dateKey) == ["2026-03-08", "2026-03-07"])
        try store.removeAll(coupleId: "c1")
        #expect(try store.all(coupleId: "c1").isEmpty)
    }

    @Test func theDatabaseFileIsOwnerOnlyAndHoldsNoOneTimeKey() throws {
        let folder = try TemporaryDirectory()
        let url = folder.url.appendingPathComponent("p.sqlite")
        let sealed = try Self.sealed()
        do {
            let store = try PendingKeyStore(url: url, secureStore: InMemorySecureStore())
            try store.insert(coupleId: "c1", dateKey: "2026-03-07", questionId: "q1", sealed: sealed)
        }
        #expect((try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) == 0o600)
        var bytes = try Data(contentsOf: url)
        if let wal = try? Data(contentsOf: URL(fileURLWithPath: url.path + "-wal")) { bytes.append(wal) }
        #expect(!bytes.contains(Data(sealed.oneTimeKey)))
        #expect(bytes.contains(Data(sealed.payload.utf8)))
    }

    @Test func anotherDevicesStoreKeyDoesNotOpenTheRow() throws {
        let folder = try TemporaryDirectory()
        let url = folder.url.appendingPathComponent("p.sqlite")
        let store = try PendingKeyStore(url: url, secureStore: InMemorySecureStore())
        let row = try store.insert(coupleId: "c1", dateKey: "2026-03-07", questionId: "q1", sealed: try Self.sealed())
        let stranger = try PendingKeyStore(url: url, secureStore: InMemorySecureStore())
        #expect(throws: CloserKitError.pendingStore("the one-time key for 2026-03-07 does not open with this device's store key")) {
            try stranger.oneTimeKey(of: row)
        }
    }
}
