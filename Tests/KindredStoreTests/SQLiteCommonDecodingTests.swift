import Foundation
import NIOCore
import SQLiteKit
import SQLiteNIO
import Testing

@testable import KindredStore

/// The row decoder's shortcut for common column types (`SQLiteDecodingRow.decodeCommon`) gives
/// what sqlite-kit's `SQLiteDataDecoder` gives for the same data, and leaves every other case to
/// it; the bind encoder's shortcut (`SQLiteHandleDatabase.encodeCommon`) likewise matches
/// `SQLiteDataEncoder`.
@Suite struct SQLiteCommonDecodingTests {
    static let values: [SQLiteData] = [
        .text("x"), .text(""), .text("1"), .text("Ünï 😀"), .integer(0), .integer(1), .integer(2), .integer(-5),
        .integer(Int.max), .null, .float(1.5), .float(0), .blob(ByteBuffer(bytes: [1, 2])),
    ]

    /// Compares the shortcut with the decoder for `type` over every value; returns how many
    /// values the shortcut answered.
    static func compare<D: Decodable & Equatable>(_ type: D.Type) -> Int {
        let decoder = SQLiteDataDecoder()
        var answered = 0
        for value in values {
            let reference = try? decoder.decode(D.self, from: value)
            guard let shortcut = SQLiteDecodingRow.decodeCommon(value, as: D.self) else { continue }
            answered += 1
            #expect(reference == shortcut, "\(D.self) from \(value): decoder \(String(describing: reference)), shortcut \(shortcut)")
        }
        return answered
    }

    @Test("text, integers and 0/1 booleans, optional or not, decode as the decoder decodes them")
    func shortcutAgreesWithTheDecoder() {
        #expect(Self.compare(String.self) == 4)
        #expect(Self.compare(String?.self) == 5)  // the four texts and NULL
        #expect(Self.compare(Int64.self) == 5)
        #expect(Self.compare(Int64?.self) == 6)
        #expect(Self.compare(Int.self) == 5)
        #expect(Self.compare(Int?.self) == 6)
        #expect(Self.compare(Bool.self) == 2)  // 0 and 1 only; other integers go to the decoder (which refuses them)
        #expect(Self.compare(Bool?.self) == 3)
        #expect(Self.compare(Double.self) == 0)
    }

    @Test("the shortcut answers nothing it should not: other types and storage classes go to the decoder")
    func otherCasesFallThrough() {
        #expect(SQLiteDecodingRow.decodeCommon(.integer(1), as: String.self) == nil)
        #expect(SQLiteDecodingRow.decodeCommon(.text("1"), as: Int64.self) == nil)
        #expect(SQLiteDecodingRow.decodeCommon(.null, as: String.self) == nil)
        #expect(SQLiteDecodingRow.decodeCommon(.null, as: Int64.self) == nil)
        #expect(SQLiteDecodingRow.decodeCommon(.float(1), as: Int64.self) == nil)
        #expect(SQLiteDecodingRow.decodeCommon(.integer(2), as: Bool.self) == nil)
    }

    @Test("text, integers and booleans, optional or not, bind as the encoder binds them; other types go to the encoder")
    func encodeShortcutAgreesWithTheEncoder() throws {
        let encoder = SQLiteDataEncoder()
        let common: [any Encodable & Sendable] = [
            "x", "", "Ünï 😀", 0, -5, Int.max, Int.min, Int64(0), Int64.max, Int64.min, true, false,
            String?.some("y"), String?.none, Int?.some(3), Int?.none, Int64?.some(-9), Int64?.none,
            Bool?.some(true), Bool?.some(false), Bool?.none,
        ]
        for value in common {
            let shortcut = try #require(SQLiteHandleDatabase.encodeCommon(value), "\(type(of: value)) \(value)")
            #expect(shortcut == (try encoder.encode(value)), "\(type(of: value)) \(value)")
        }
        let others: [any Encodable & Sendable] = [
            1.5, Double?.some(2), Int32(4), UInt64(5), Data([1]), ["a"], String??.some(nil), Date(timeIntervalSince1970: 0),
        ]
        for value in others {
            #expect(SQLiteHandleDatabase.encodeCommon(value) == nil, "\(type(of: value))")
        }
    }
}
