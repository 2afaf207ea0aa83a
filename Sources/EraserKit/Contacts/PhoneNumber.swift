/// A phone number reduced for comparing: a country calling code when known, and the national
/// significant number (digits only, without the trunk prefix `0`).
///
/// Reading: `tel:` and URI parameters (`;ext=`) are dropped, and everything from the first
/// letter or `,` on (extensions, pauses); spaces, dashes, dots, slashes and parentheses are
/// separators. A leading `+` or `00` (and `011` when the default country code is 1) starts an
/// international number, whose country code is read off (`CountryCallingCodes`), and a `0`
/// written after it (`+90 (0532) …`) is dropped except for Italy. A national number loses its
/// trunk `0` (except for Italy, where it belongs to the number; for North America a leading
/// `1` of an 11-digit number) and takes the default country code when one is given.
public struct PhoneNumber: Sendable, Hashable, CustomStringConvertible {
    /// The country calling code (`90`), or `nil` for a national number without a default.
    public let countryCode: String?
    /// The national significant number (`5321234567`).
    public let nationalNumber: String
    /// Every digit as typed, for a number typed without `+` or `00` (`905321234567`).
    let typedDigits: String
    let wasInternational: Bool

    /// Reads `text`.
    /// - Parameter defaultCountryCode: the calling code of national numbers (`90` for Turkey).
    /// - Returns: `nil` when there are fewer than 4 digits or characters a phone number has not.
    public init?(_ text: String, defaultCountryCode: Int? = nil) {
        var body = Substring(text.trimmingASCIISpaces())
        if body.lowercased().hasPrefix("tel:") { body = body.dropFirst(4) }
        if let cut = body.firstIndex(where: { $0 == ";" || $0 == "," || $0.isLetter }) { body = body[..<cut] }
        var digits = ""
        var plus = false
        for character in body {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else if character == "+", digits.isEmpty, !plus {
                plus = true
            } else if !(character.isWhitespace || "-./()".contains(character)) {
                return nil
            }
        }
        guard digits.count >= 4 else { return nil }
        let defaultCode = defaultCountryCode.map(String.init)
        typedDigits = digits
        if !plus, digits.hasPrefix("00") {
            plus = true
            digits.removeFirst(2)
        } else if !plus, defaultCode == "1", digits.hasPrefix("011") {
            plus = true
            digits.removeFirst(3)
        }
        wasInternational = plus
        if plus {
            guard let (code, rest) = CountryCallingCodes.split(digits), rest.count >= 2 else { return nil }
            countryCode = code
            nationalNumber = rest.hasPrefix("0") && !CountryCallingCodes.keepsLeadingZero(code) ? String(rest.dropFirst()) : rest
        } else if defaultCode == "1" {
            countryCode = "1"
            nationalNumber = digits.count == 11 && digits.hasPrefix("1") ? String(digits.dropFirst()) : digits
        } else {
            countryCode = defaultCode
            let keepsZero = defaultCode.map(CountryCallingCodes.keepsLeadingZero) ?? false
            nationalNumber = digits.hasPrefix("0") && !keepsZero ? String(digits.dropFirst()) : digits
        }
    }

    /// `+905321234567`, when the country code is known.
    public var e164: String? { countryCode.map { "+\($0)\(nationalNumber)" } }

    public var description: String { e164 ?? nationalNumber }

    /// How `self` and `other` match: `.phone` for the same country code and national number,
    /// `.phoneNationalNumber` when one lacks the country code (or was typed as bare international
    /// digits) and the national numbers (at least 6 digits) agree; `nil` otherwise.
    func match(_ other: PhoneNumber) -> ContactMatch.Kind? {
        if let mine = countryCode, let theirs = other.countryCode {
            if mine == theirs, nationalNumber == other.nationalNumber { return .phone }
        } else if nationalNumber.count >= 6, Self.sameNational(self, other) {
            return .phoneNationalNumber
        }
        // A number typed as international digits without "+" (905321234567) against a real one.
        for (typed, full) in [(self, other), (other, self)] where !typed.wasInternational && full.wasInternational {
            if let code = full.countryCode, typed.typedDigits == code + full.nationalNumber, typed.typedDigits.count >= 8 {
                return .phoneNationalNumber
            }
        }
        return nil
    }

    private static func sameNational(_ a: PhoneNumber, _ b: PhoneNumber) -> Bool {
        a.nationalNumber == b.nationalNumber
            || (a.nationalNumber.hasPrefix("0") && a.nationalNumber.dropFirst() == b.nationalNumber)
            || (b.nationalNumber.hasPrefix("0") && b.nationalNumber.dropFirst() == a.nationalNumber)
    }
}
