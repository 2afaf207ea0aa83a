/// A property's parameter (`CN="Sam Taylor"`, `TZID=Europe/Istanbul`, `MEMBER="a","b"`).
public struct ICSParameter: Sendable, Equatable {
    /// The name, upper-cased.
    public var name: String
    /// The values, quotes removed and RFC 6868 `^` escapes decoded.
    public var values: [String]

    public init(name: String, values: [String]) {
        self.name = name
        self.values = values
    }
}

/// One content line: `NAME;PARAM=value:VALUE` (RFC 5545 §3.1).
public struct ICSProperty: Sendable, Equatable {
    /// The name, upper-cased (`DTSTART`, `X-WR-CALNAME`).
    public var name: String
    public var parameters: [ICSParameter]
    /// The value as written, still escaped (`ICSText.unescape` decodes a TEXT value).
    public var value: String
    /// The 1-based number of the line it starts on.
    public var line: Int

    public init(name: String, parameters: [ICSParameter] = [], value: String, line: Int) {
        self.name = name
        self.parameters = parameters
        self.value = value
        self.line = line
    }

    /// The first value of the parameter `name` (any case), if present.
    public func parameter(_ name: String) -> String? {
        let wanted = name.uppercased()
        return parameters.first { $0.name == wanted }?.values.first
    }
}

extension ICSProperty {
    /// Parses one unfolded content line.
    ///
    /// The grammar is RFC 5545 §3.1's: a name of letters, digits and `-`; then parameters, each
    /// `;NAME=` and comma-separated values, a value either quoted (`"…"`, where `;`, `:` and `,`
    /// are plain characters) or unquoted (up to the next `,` `;` or `:`); then `:` and the value.
    /// Text is decoded as UTF-8, an invalid sequence becoming U+FFFD.
    /// - Throws: `CalendarError.malformed` naming the line for a bad name, a parameter without
    ///   `=`, an unterminated quote or a missing `:`.
    static func parse(_ line: ICSLogicalLine, file: String) throws(CalendarError) -> ICSProperty {
        let bytes = line.bytes
        func fail(_ reason: String) -> CalendarError { .malformed(file: file, line: line.line, reason: reason) }
        func isNameByte(_ byte: UInt8) -> Bool {
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
        }
        var index = 0
        func readName(_ what: String) throws(CalendarError) -> String {
            let start = index
            while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
            guard index > start else {
                throw fail(index < bytes.count ? "\(what) expected before \"\(Character(Unicode.Scalar(bytes[index])))\"" : "\(what) expected")
            }
            return String(decoding: bytes[start..<index], as: UTF8.self).uppercased()
        }
        let name = try readName("a property name")
        var parameters: [ICSParameter] = []
        while index < bytes.count, bytes[index] == 0x3B {  // ;
            index += 1
            let parameterName = try readName("a parameter name")
            guard index < bytes.count, bytes[index] == 0x3D else { throw fail("the parameter \(parameterName) has no \"=\"") }
            index += 1
            var values: [String] = []
            while true {
                if index < bytes.count, bytes[index] == 0x22 {  // "
                    let start = index + 1
                    guard let end = bytes[start...].firstIndex(of: 0x22) else {
                        throw fail("the quoted value of the parameter \(parameterName) is not closed")
                    }
                    values.append(ICSText.decodeParameter(bytes[start..<end]))
                    index = end + 1
                } else {
                    let start = index
                    while index < bytes.count, bytes[index] != 0x2C, bytes[index] != 0x3B, bytes[index] != 0x3A { index += 1 }
                    values.append(ICSText.decodeParameter(bytes[start..<index]))
                }
                guard index < bytes.count, bytes[index] == 0x2C else { break }  // , another value
                index += 1
            }
            parameters.append(ICSParameter(name: parameterName, values: values))
        }
        guard index < bytes.count, bytes[index] == 0x3A else {
            throw fail("no \":\" between the property \(name) and its value")
        }
        let value = String(decoding: bytes[(index + 1)...], as: UTF8.self)
        return ICSProperty(name: name, parameters: parameters, value: value, line: line.line)
    }
}
