import Testing
@testable import DeviceIntegrity

@Suite struct CBORDecoderTests {
    let decoder = CBORDecoder()

    @Test func decodesRFC8949Examples() throws {
        // Appendix A of RFC 8949.
        #expect(try decoder.decode([0x00]) == .unsigned(0))
        #expect(try decoder.decode([0x18, 0x64]) == .unsigned(100))
        #expect(try decoder.decode([0x1b, 0, 0, 0, 0xe8, 0xd4, 0xa5, 0x10, 0x00]) == .unsigned(1_000_000_000_000))
        #expect(try decoder.decode([0x38, 0x63]) == .negative(99))
        #expect(try decoder.decode([0x44, 1, 2, 3, 4]) == .bytes([1, 2, 3, 4]))
        #expect(try decoder.decode([0x62, 0xc3, 0xbc]) == .text("ü"))
        #expect(try decoder.decode([0x83, 0x01, 0x82, 0x02, 0x03, 0x82, 0x04, 0x05])
            == .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])]))
        #expect(try decoder.decode([0xa2, 0x61, 0x61, 0x01, 0x61, 0x62, 0x82, 0x02, 0x03])
            == .map([CBORMapEntry(key: .text("a"), value: .unsigned(1)),
                      CBORMapEntry(key: .text("b"), value: .array([.unsigned(2), .unsigned(3)]))]))
        #expect(try decoder.decode([0xf4]) == .bool(false))
        #expect(try decoder.decode([0xf5]) == .bool(true))
        #expect(try decoder.decode([0xf6]) == .null)
    }

    @Test func roundTripsTheTestEncoder() throws {
        let value = TestCBOREncoder.map([
            "fmt": .text("apple-appattest"),
            "n": .bytes([UInt8](repeating: 7, count: 300)),
            "big": .unsigned(70_000),
        ])
        #expect(try decoder.decode(TestCBOREncoder.encode(value)) == value)
        #expect(try decoder.decode(TestCBOREncoder.encode(value))["big"] == .unsigned(70_000))
    }

    @Test func refusesMalformedInput() {
        #expect(throws: CBORError.truncated(offset: 0)) { try decoder.decode([UInt8]()) }
        // A string longer than the remaining input is refused from its declared length.
        #expect(throws: CBORError.lengthTooLarge(4, offset: 0)) { try decoder.decode([0x44, 1, 2]) }
        #expect(throws: CBORError.truncated(offset: 1)) { try decoder.decode([0x19, 0x01]) }
        #expect(throws: CBORError.indefiniteLength(offset: 0)) { try decoder.decode([0x5f, 0x41, 0x00, 0xff]) }
        #expect(throws: CBORError.reservedAdditionalInformation(offset: 0)) { try decoder.decode([0x1c]) }
        #expect(throws: CBORError.unsupportedItem(majorType: 6, offset: 0)) { try decoder.decode([0xc1, 0x00]) }
        #expect(throws: CBORError.unsupportedItem(majorType: 7, offset: 0)) { try decoder.decode([0xf9, 0x3c, 0x00]) }
        #expect(throws: CBORError.invalidUTF8(offset: 0)) { try decoder.decode([0x62, 0xc3, 0x28]) }
        #expect(throws: CBORError.duplicateMapKey(offset: 3)) { try decoder.decode([0xa2, 0x01, 0x02, 0x01, 0x03]) }
        #expect(throws: CBORError.trailingBytes(offset: 1)) { try decoder.decode([0x00, 0x00]) }
        // A declared length far beyond the input is refused before any allocation.
        #expect(throws: CBORError.lengthTooLarge(0xffff_ffff, offset: 0)) {
            try decoder.decode([0x5a, 0xff, 0xff, 0xff, 0xff, 0x00])
        }
        #expect(throws: CBORError.lengthTooLarge(0xffff_ffff, offset: 0)) {
            try decoder.decode([0x9a, 0xff, 0xff, 0xff, 0xff, 0x00])
        }
    }

    @Test func boundsDepthAndLength() throws {
        let deep = [UInt8](repeating: 0x81, count: 17) + [0x00]
        #expect(throws: CBORError.nestingTooDeep(limit: 16)) { try decoder.decode(deep) }
        #expect(try decoder.decode(Array(deep.dropFirst())) != .null)
        let small = CBORDecoder(maximumDepth: 4, maximumLength: 8)
        #expect(throws: CBORError.lengthTooLarge(9, offset: 0)) { try small.decode([0x49] + [UInt8](repeating: 0, count: 9)) }
        #expect(try small.decode([0x48] + [UInt8](repeating: 0, count: 8)) == .bytes([UInt8](repeating: 0, count: 8)))
    }

    @Test func everyTruncationOfAnAttestationIsATypedError() throws {
        let device = try TestAppAttestDevice()
        let object = try device.attestation(authData: device.attestationAuthData(), clientData: [1, 2, 3])
        #expect(throws: Never.self) { try decoder.decode(object) }
        for length in 0..<object.count {
            #expect(throws: CBORError.self) { try decoder.decode(object.prefix(length)) }
        }
    }
}
