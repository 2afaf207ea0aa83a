/// A DURATION value (RFC 5545 §3.3.6): nominal days (`P1D`, `P2W`: the same wall-clock time so
/// many days later, across daylight-saving changes) and exact seconds (`PT1H30M`).
struct ICSDuration: Sendable, Equatable {
    /// Whole days (a week is 7), negative for a negative duration.
    var days: Int
    /// Seconds, negative for a negative duration.
    var seconds: Int

    static let zero = ICSDuration(days: 0, seconds: 0)

    /// Reads `[+|-]P[nW][nD][T[nH][nM][nS]]` (each number at most 9 digits); `nil` when it is
    /// not one.
    static func parse(_ value: String) -> ICSDuration? {
        var text = Substring(value.trimmingASCIISpaces().uppercased())
        var sign = 1
        if text.first == "-" || text.first == "+" {
            sign = text.first == "-" ? -1 : 1
            text.removeFirst()
        }
        guard text.first == "P" else { return nil }
        text.removeFirst()
        var days = 0
        var seconds = 0
        var inTime = false
        var digits = ""
        var sawPart = false
        for character in text {
            if character.isASCII, character.isNumber { digits.append(character); continue }
            if character == "T", digits.isEmpty, !inTime { inTime = true; continue }
            guard digits.count <= 9, let amount = Int(digits) else { return nil }  // no overflow below
            digits = ""
            switch (character, inTime) {
            case ("W", false): days += amount * 7
            case ("D", false): days += amount
            case ("H", true): seconds += amount * 3600
            case ("M", true): seconds += amount * 60
            case ("S", true): seconds += amount
            default: return nil
            }
            sawPart = true
        }
        guard digits.isEmpty, sawPart else { return nil }
        return ICSDuration(days: sign * days, seconds: sign * seconds)
    }
}
