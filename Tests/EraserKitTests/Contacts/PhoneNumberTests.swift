import Testing

@testable import EraserKit

@Suite struct PhoneNumberTests {
    @Test(arguments: [
        ("0532 123 45 67", 90, "+905321234567"),
        ("+90 (532) 123-45-67", nil, "+905321234567"),
        ("0090 532 123 45 67", nil, "+905321234567"),
        ("tel:+90-532-123-45-67;ext=12", nil, "+905321234567"),
        ("+90 (0532) 123 45 67", nil, "+905321234567"),
        ("532.123.45.67", 90, "+905321234567"),
        ("(415) 555-0100", 1, "+14155550100"),
        ("1-415-555-0100", 1, "+14155550100"),
        ("011 44 20 7946 0958", 1, "+442079460958"),
        ("+44 (0)20 7946 0958", nil, "+442079460958"),
        ("020 7946 0958 ext. 4", 44, "+442079460958"),
        ("06 1234 5678", 39, "+390612345678"),
        ("+39 06 1234 5678", nil, "+390612345678"),
        ("+7 912 345-67-89", nil, "+79123456789"),
        ("+358 40 1234567", nil, "+358401234567"),
    ] as [(String, Int?, String)])
    func numbersAreReducedToE164(text: String, country: Int?, e164: String) throws {
        let number = try #require(PhoneNumber(text, defaultCountryCode: country))
        #expect(number.e164 == e164)
    }

    @Test func aNationalNumberWithoutDefaultHasNoCountryCode() throws {
        let number = try #require(PhoneNumber("0532 123 45 67"))
        #expect(number.countryCode == nil)
        #expect(number.nationalNumber == "5321234567")
        #expect(number.e164 == nil)
        #expect(number.description == "5321234567")
    }

    /// Fewer than 4 digits (letters end a number: "555-CALL-NOW" has 3), or a character no
    /// phone number has.
    @Test(arguments: ["", "call me", "12", "+", "+0 123 4567", "555-CALL-NOW", "0532 123 45 67 #4", "0532_123_45_67"])
    func whatIsNotANumberIsNil(text: String) {
        #expect(PhoneNumber(text) == nil)
    }

    @Test func matchingComparesCountryCodeAndNationalNumber() throws {
        let international = try #require(PhoneNumber("+90 532 123 45 67"))
        #expect(international.match(try #require(PhoneNumber("0532 123 4567", defaultCountryCode: 90))) == .phone)
        #expect(international.match(try #require(PhoneNumber("0532 123 4567"))) == .phoneNationalNumber)
        #expect(international.match(try #require(PhoneNumber("532 123 4567"))) == .phoneNationalNumber)
        #expect(international.match(try #require(PhoneNumber("905321234567"))) == .phoneNationalNumber, "typed without +")
        #expect(international.match(try #require(PhoneNumber("+1 532 123 4567"))) == nil, "another country")
        #expect(international.match(try #require(PhoneNumber("0532 123 4568"))) == nil)
        #expect(try #require(PhoneNumber("12345")).match(try #require(PhoneNumber("012345"))) == nil, "too short to match without a code")
        let italian = try #require(PhoneNumber("+39 06 1234 5678"))
        #expect(italian.match(try #require(PhoneNumber("06 1234 5678"))) == .phoneNationalNumber)
    }
}
