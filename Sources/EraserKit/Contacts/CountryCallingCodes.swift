/// ITU-T E.164 country calling codes. They are prefix-free: `1` and `7` are one digit, the
/// two-digit codes are listed, and every other code has three digits, so an international
/// number's code can be read off without a full table.
enum CountryCallingCodes {
    static let twoDigit: Set<String> = [
        "20", "27", "30", "31", "32", "33", "34", "36", "39", "40", "41", "43", "44", "45", "46", "47", "48", "49",
        "51", "52", "53", "54", "55", "56", "57", "58", "60", "61", "62", "63", "64", "65", "66",
        "81", "82", "84", "86", "90", "91", "92", "93", "94", "95", "98",
    ]

    /// The code and the rest of `digits` (an international number without its `+`).
    static func split(_ digits: String) -> (code: String, rest: String)? {
        guard let first = digits.first, first != "0" else { return nil }
        let length = first == "1" || first == "7" ? 1 : twoDigit.contains(String(digits.prefix(2))) ? 2 : 3
        guard digits.count > length else { return nil }
        return (String(digits.prefix(length)), String(digits.dropFirst(length)))
    }

    /// Whether the leading `0` of a national number is part of it (Italy, San Marino, Vatican).
    static func keepsLeadingZero(_ code: String) -> Bool { ["39", "378", "379"].contains(code) }
}
