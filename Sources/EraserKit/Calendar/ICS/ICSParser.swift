/// Reads iCalendar files (RFC 5545) into components, keeping every component's byte range.
///
/// What it checks is the structure: content-line syntax (§3.1), `BEGIN`/`END` nesting, and that
/// the file's top-level components are `VCALENDAR`s. Values are interpreted later, by the event
/// reader. An empty file (or one of blank lines) is a calendar with nothing in it.
public enum ICSParser {
    /// Parses `bytes`.
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - fileName: the name errors give.
    /// - Throws: `CalendarError.malformed` with the 1-based line: a bad content line, an `END`
    ///   that closes nothing or another component, a `BEGIN` never closed, a property outside any
    ///   component, or a top-level component other than `VCALENDAR`.
    public static func parse(_ bytes: [UInt8], fileName: String) throws(CalendarError) -> ICSDocument {
        var stack: [ICSComponent] = []
        var calendars: [ICSComponent] = []
        for line in try ICSUnfolder.lines(of: bytes, file: fileName) {
            let property = try ICSProperty.parse(line, file: fileName)
            switch property.name {
            case "BEGIN":
                let name = property.value.trimmingASCIISpaces().uppercased()
                guard !name.isEmpty else { throw .malformed(file: fileName, line: line.line, reason: "BEGIN names no component") }
                if stack.isEmpty, name != "VCALENDAR" {
                    throw .malformed(file: fileName, line: line.line, reason: "BEGIN:\(name) outside BEGIN:VCALENDAR")
                }
                stack.append(ICSComponent(
                    name: name, properties: [], children: [], byteRange: line.range,
                    endLineStart: line.range.lowerBound, line: line.line))
            case "END":
                let name = property.value.trimmingASCIISpaces().uppercased()
                guard var open = stack.popLast() else {
                    throw .malformed(file: fileName, line: line.line, reason: "END:\(name) closes no component")
                }
                guard open.name == name else {
                    throw .malformed(file: fileName, line: line.line,
                                     reason: "END:\(name) where BEGIN:\(open.name) of line \(open.line) is open")
                }
                open.byteRange = open.byteRange.lowerBound..<line.range.upperBound
                open.endLineStart = line.range.lowerBound
                if stack.isEmpty {
                    calendars.append(open)
                } else {
                    stack[stack.count - 1].children.append(open)
                }
            default:
                guard !stack.isEmpty else {
                    throw .malformed(file: fileName, line: line.line, reason: "the property \(property.name) is outside BEGIN:VCALENDAR")
                }
                stack[stack.count - 1].properties.append(property)
            }
        }
        if let open = stack.last {
            throw .malformed(file: fileName, line: open.line, reason: "BEGIN:\(open.name) is never closed")
        }
        return ICSDocument(fileName: fileName, bytes: bytes, calendars: calendars)
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    func trimmingASCIISpaces() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
