/// A cursor over one line's scalars with the few readers share formats need. Every reader either
/// consumes what it read and returns it, or leaves the cursor where it was and returns nil/false.
struct Scan {
    let scalars: ArraySlice<Unicode.Scalar>
    var index: Int

    /// A cursor at the line's first letter or digit (where headers start).
    init(content line: ShareLine) {
        scalars = line.scalars
        index = line.contentStart
    }

    /// A cursor at the line's first scalar.
    init(_ line: ShareLine) {
        scalars = line.scalars
        index = line.scalars.startIndex
    }

    var atEnd: Bool { index >= scalars.endIndex }
    var peek: Unicode.Scalar? { index < scalars.endIndex ? scalars[index] : nil }
    var rest: ArraySlice<Unicode.Scalar> { scalars[index...] }

    /// Skips white space and invisible marks.
    mutating func skipSpaces() {
        while index < scalars.endIndex, ShareLine.isBlank(scalars[index]) { index += 1 }
    }

    /// Whether only white space, invisible marks and emoji (no letters, digits or punctuation) remain.
    func restIsDecoration() -> Bool {
        for scalar in rest where !ShareLine.isBlank(scalar) {
            if scalar.value < 0x80 { return false }
            if scalar.properties.isAlphabetic { return false }
        }
        return true
    }

    /// Consumes `literal` (ASCII, compared without case).
    mutating func literal(_ literal: StaticString) -> Bool {
        var i = index
        let bytes = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in bytes {
            guard i < scalars.endIndex else { return false }
            let v = scalars[i].value
            guard v < 0x80, Self.lower(UInt8(v)) == Self.lower(byte) else { return false }
            i += 1
        }
        index = i
        return true
    }

    /// Consumes white space then `literal`.
    mutating func word(_ literal: StaticString) -> Bool {
        let saved = index
        skipSpaces()
        if self.literal(literal) { return true }
        index = saved
        return false
    }

    /// Consumes one scalar equal to `value`, and a variation selector after it.
    mutating func scalar(_ value: UInt32) -> Bool {
        guard let p = peek, p.value == value else { return false }
        index += 1
        if let next = peek, next.value == 0xFE0F { index += 1 }
        return true
    }

    /// Consumes an unsigned decimal number of at most nine digits, with thousands separators (`,` `.`
    /// `'` NBSP, narrow NBSP, thin space) only between correct three-digit groups: `1,492` `1.492`.
    mutating func number() -> Int? {
        let saved = index
        var value = 0
        var digits = 0
        var groupDigits = 0
        var grouped = false
        while let p = peek {
            if let d = Self.digit(p) {
                value = value * 10 + d
                digits += 1
                groupDigits += 1
                index += 1
                if digits > 9 { index = saved; return nil }
                continue
            }
            if Self.isGroupSeparator(p), index + 1 < scalars.endIndex, Self.digit(scalars[index + 1]) != nil,
                groupDigits >= 1, grouped ? groupDigits == 3 : groupDigits <= 3
            {
                // Only a separator followed by exactly three digits and then a non-digit is a group.
                var probe = index + 1
                var count = 0
                while probe < scalars.endIndex, Self.digit(scalars[probe]) != nil { count += 1; probe += 1 }
                guard count == 3 else { break }
                grouped = true
                groupDigits = 0
                index += 1
                continue
            }
            break
        }
        guard digits > 0, !grouped || groupDigits == 3 else { index = saved; return nil }
        return value
    }

    /// Consumes a clock time `m:ss`, `mm:ss` or `h:mm:ss` and returns seconds (at most 23:59:59).
    mutating func time() -> Int? {
        let saved = index
        func field(maxDigits: Int) -> (value: Int, digits: Int)? {
            var value = 0
            var count = 0
            while let p = peek, let d = Self.digit(p), count < maxDigits { value = value * 10 + d; count += 1; index += 1 }
            if let p = peek, Self.digit(p) != nil { return nil }
            return count == 0 ? nil : (value, count)
        }
        guard let first = field(maxDigits: 3), scalar(0x3A) else { index = saved; return nil }
        guard let second = field(maxDigits: 2), second.digits == 2, second.value < 60 else { index = saved; return nil }
        let afterTwo = index
        if scalar(0x3A) {
            guard let third = field(maxDigits: 2), third.digits == 2, third.value < 60, first.value < 24 else {
                index = saved
                return nil
            }
            return first.value * 3600 + second.value * 60 + third.value
        }
        index = afterTwo
        guard first.value < 1440 else { index = saved; return nil }
        return first.value * 60 + second.value
    }

    /// Consumes a keycap (`4️⃣`: a digit, an optional variation selector, U+20E3), `🔟`, or Octordle's
    /// clocks `🕚` `🕛` `🕐` (11, 12, 13), and returns its number.
    mutating func keycap() -> Int? {
        guard let p = peek else { return nil }
        switch p.value {
        case 0x1F51F: index += 1; skipSelector(); return 10
        case 0x1F55A: index += 1; skipSelector(); return 11
        case 0x1F55B: index += 1; skipSelector(); return 12
        case 0x1F550: index += 1; skipSelector(); return 13
        default:
            guard let d = Self.digit(p) else { return nil }
            var i = index + 1
            if i < scalars.endIndex, scalars[i].value == 0xFE0F { i += 1 }
            guard i < scalars.endIndex, scalars[i].value == 0x20E3 else { return nil }
            index = i + 1
            return d
        }
    }

    mutating func skipSelector() {
        if let p = peek, p.value == 0xFE0F { index += 1 }
    }

    static func digit(_ scalar: Unicode.Scalar) -> Int? {
        let v = scalar.value
        return v >= 0x30 && v <= 0x39 ? Int(v - 0x30) : nil
    }

    static func isGroupSeparator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2C, 0x2E, 0x27, 0xA0, 0x202F, 0x2009, 0x2019: true
        default: false
        }
    }

    static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }
}
