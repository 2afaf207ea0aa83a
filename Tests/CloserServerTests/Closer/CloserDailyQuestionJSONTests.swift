@testable import CloserServer
import CloserAPI
import Foundation
import KindredTestSupport
import KindredServerCore
import Testing

/// The direct `GET …/today`'s JSON (`CloserDailyQuestion+JSON.swift`) is what the generated
/// server's `JSONEncoder` writes for the same day, byte for byte.
@Suite struct CloserDailyQuestionJSONTests {
    /// `JSONEncoder` as the OpenAPI runtime configures it for the server
    /// (`DomainServer.openAPIConfiguration`).
    static var serverEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let dates = DomainServer.openAPIConfiguration.dateTranscoder
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(try dates.encode(date))
        }
        return encoder
    }

    @Test("a day's JSON is JSONEncoder's for random text in every string field and random absent members")
    func randomDaysMatchJSONEncoder() throws {
        let encoder = Self.serverEncoder
        var random = SeededRandom(seed: 0x636c_6f73)  // deterministic: a failing round replays
        for round in 0..<1_500 {
            let day = random.day()
            let written = try day.jsonBytes()
            let expected = Array(try encoder.encode(day))
            #expect(
                written == expected,
                "round \(round): \(String(decoding: written, as: UTF8.self)) vs \(String(decoding: expected, as: UTF8.self))"
            )
            if written != expected { break }
        }
    }

    @Test("every property of the day, its answers, question and release keys is written: a property added to the contract fails here")
    func writerCoversEveryProperty() throws {
        var random = SeededRandom(seed: 7)
        var day = random.day()
        day.question = random.question()
        day.answers = [random.answer(full: true), random.answer(full: true)]
        day.releaseKeys = [random.releaseKey()]
        // A property left nil would be absent from both documents and pass unseen.
        for value in [day, day.question!, day.answers[0], day.releaseKeys![0]] as [Any] {
            let empty = Mirror(reflecting: value).children.filter { child in
                let inner = Mirror(reflecting: child.value)
                return inner.displayStyle == .optional && inner.children.isEmpty
            }.map { $0.label ?? "?" }
            #expect(empty.isEmpty, "\(type(of: value)) properties not filled (fill them, and write them in jsonBytes()): \(empty)")
        }
        let written = try day.jsonBytes()
        let expected = Array(try Self.serverEncoder.encode(day))
        #expect(written == expected, "\(String(decoding: written, as: UTF8.self))")
        let keys = try #require(try JSONSerialization.jsonObject(with: Data(written)) as? [String: Any]).keys.sorted()
        #expect(keys == ["answers", "answersCloseAt", "assignedAt", "coupleId", "date", "expiresAt", "question", "questionId", "releaseKeys"])
    }

    @Test("absent, empty and present lists are told apart as JSONEncoder tells them")
    func emptyListsMatchJSONEncoder() throws {
        var random = SeededRandom(seed: 11)
        var day = random.day()
        for (answers, keys) in [([], nil), ([], []), ([random.answer(full: false)], [random.releaseKey(), random.releaseKey()])]
            as [([Components.Schemas.CloserAnswer], [Components.Schemas.CloserReleaseKey]?)]
        {
            day.answers = answers
            day.releaseKeys = keys
            #expect(try day.jsonBytes() == Array(try Self.serverEncoder.encode(day)))
        }
    }
}

/// Random API values for the JSON comparisons (`SeededRandom`: a failing round replays).
extension SeededRandom {
    /// A date anywhere from 1970 to 2096 with a random millisecond part (and sometimes a
    /// sub-millisecond part the transcoder rounds).
    mutating func date() -> Date {
        Date(timeIntervalSince1970: Double(below(4_000_000_000)) + Double(below(1000)) / 1000 + (below(4) == 0 ? 0.0004 : 0))
    }

    mutating func question() -> Components.Schemas.CloserQuestion {
        .init(id: text(), packId: text(), categoryId: text(), text: text(maxLength: 80), isPremium: bool(), active: bool())
    }

    mutating func answer(full: Bool) -> Components.Schemas.CloserAnswer {
        func optional<T>(_ make: (inout SeededRandom) -> T) -> T? { full ? make(&self) : maybe(make) }
        return .init(
            coupleId: text(), date: text(maxLength: 10), questionId: optional { $0.text() }, userId: text(),
            schemaVersion: Components.Schemas.CloserAnswer.SchemaVersionPayload.allCases[below(3)],
            text: optional { $0.text(maxLength: 60) }, encryptedText: optional { $0.text(maxLength: 60) },
            encryptedPayload: optional { $0.text(maxLength: 60) }, commitmentHash: optional { $0.text() },
            commitmentSeal: optional { $0.text() }, answerKeyReleased: optional { $0.bool() }, isRevealed: optional { $0.bool() },
            contentWithheld: bool(), migratedAt: optional { $0.date() }, createdAt: date(), updatedAt: date()
        )
    }

    mutating func releaseKey() -> Components.Schemas.CloserReleaseKey {
        .init(senderUserId: text(), recipientUserId: text(), recipientDeviceId: text(), encryptedAnswerKey: text(maxLength: 60), createdAt: date())
    }

    /// A day with 0–3 answers and absent, empty or present release keys.
    mutating func day() -> Components.Schemas.CloserDailyQuestion {
        .init(
            coupleId: text(), date: text(maxLength: 10), questionId: text(), question: maybe { $0.question() },
            assignedAt: date(), expiresAt: date(), answersCloseAt: date(),
            answers: (0..<below(4)).map { _ in answer(full: false) },
            releaseKeys: maybe { random in (0..<random.below(3)).map { _ in random.releaseKey() } }
        )
    }
}
