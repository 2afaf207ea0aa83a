@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredAPI
import OpenAPIRuntime
import Testing


/// The server's date format is exactly `ISO8601DateTranscoder`'s, both ways.
@Suite struct InternetDateTranscoderTests {
    let fast = InternetDateTranscoder()
    let reference = ISO8601DateTranscoder.iso8601

    @Test func knownDates() throws {
        #expect(try fast.encode(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(try fast.encode(Date(timeIntervalSince1970: 1_767_225_600.999)) == "2026-01-01T00:00:00Z")
        #expect(try fast.encode(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
        #expect(try fast.encode(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
        #expect(try fast.decode("2000-02-29T00:00:00Z") == Date(timeIntervalSince1970: 951_782_400))
        #expect(try fast.decode("1969-12-31T23:59:59Z") == Date(timeIntervalSince1970: -1))
    }

    @Test func agreesWithTheFormatterOnManyDates() throws {
        var random = SystemRandomNumberGenerator()
        // 1800 to 2400, whole and fractional seconds.
        for _ in 0..<5000 {
            let seconds = Double(Int64.random(in: -5_364_662_400...13_569_465_600, using: &random))
            let date = Date(timeIntervalSince1970: seconds + Double.random(in: 0..<1, using: &random))
            let text = try reference.encode(date)
            #expect(try fast.encode(date) == text, "\(date.timeIntervalSince1970)")
            #expect(try fast.decode(text) == reference.decode(text), "\(text)")
        }
    }

    @Test func otherFormsAreLeftToTheFormatter() throws {
        #expect(try fast.decode("2026-01-01T01:00:00+01:00") == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(throws: (any Error).self) { try fast.decode("yesterday") }
    }
}
