@testable import KindredServerCore
import Foundation
import KindredTestSupport
import Testing

/// `JSONObjectWriter.object(_:)` — the payload of realtime events and queued notifications —
/// writes exactly what `JSONEncoder` writes for the same `[String: String]` with the server's
/// options, and `RealtimePublisher.json` takes it for such payloads.
@Suite struct JSONObjectWriterStringsTests {
    static func encoded(_ fields: [String: String]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(fields), as: UTF8.self)
    }

    @Test func randomObjectsAreWrittenAsJSONEncoderWritesThem() throws {
        var random = SeededRandom(seed: 0x5EED_0B1E)
        for _ in 0..<2_000 {
            var fields: [String: String] = [:]
            for _ in 0..<Int(random.next() % 7) {
                // Keys that sort differently by case, digits, combining marks and astral text.
                fields[random.text(maxLength: 6)] = random.text(maxLength: 24)
            }
            let written = String(decoding: JSONObjectWriter.object(fields), as: UTF8.self)
            #expect(written == (try Self.encoded(fields)), "\(fields)")
        }
    }

    @Test func keysSortByTheirBytesNotByCaseNumberOrCanonicalForm() throws {
        let fields = ["a10": "1", "a9": "2", "B": "3", "a": "4", "_x": "5", "é": "6", "e\u{301}x": "7", "path": "a/b"]
        let written = String(decoding: JSONObjectWriter.object(fields), as: UTF8.self)
        #expect(written == (try Self.encoded(fields)))
        #expect(written.hasPrefix(#"{"B":"3","_x":"5","a":"4","a10":"1","a9":"2""#))
        #expect(String(decoding: JSONObjectWriter.object([:]), as: UTF8.self) == "{}")
    }

    @Test func realtimePayloadsOfStringsTakeTheWriterAndOthersTheEncoder() throws {
        let fields = ["coupleId": "c-1", "date": "2026-11-27", "userId": "u/2"]
        #expect(try RealtimePublisher.json(fields) == (try Self.encoded(fields)))
        struct Other: Encodable { var at: Date; var n: Int }
        #expect(try RealtimePublisher.json(Other(at: Date(timeIntervalSince1970: 0), n: 3)) == #"{"at":"1970-01-01T00:00:00Z","n":3}"#)
    }
}
