import Foundation

extension CronSchedule {
    /// The macros and the expressions they stand for.
    static let macros: [String: String] = [
        "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *",
        "@weekly": "0 0 * * 0", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
    ]

    /// Parses a cron expression.
    /// - Parameter expression: five space-separated fields, or a macro such as `@daily`.
    /// - Throws: `CronParseError` naming the field and the text that is wrong.
    public init(_ expression: String) throws(CronParseError) {
        let trimmed = expression.trimmingCharacters(in: .whitespaces)
        var text = trimmed
        if trimmed.hasPrefix("@") {
            guard let expanded = Self.macros[trimmed.lowercased()] else { throw .unknownMacro(trimmed) }
            text = expanded
        }
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard fields.count == 5 else { throw .wrongFieldCount(fields.count) }
        let minutes = try Self.parse(fields[0], .minute)
        let hours = try Self.parse(fields[1], .hour)
        let daysOfMonth = try Self.parse(fields[2], .dayOfMonth)
        let months = try Self.parse(fields[3], .month)
        var daysOfWeek = try Self.parse(fields[4], .dayOfWeek)
        if daysOfWeek & (1 << 7) != 0 { daysOfWeek = (daysOfWeek | 1) & 0x7F }  // 7 is Sunday
        self.expression = trimmed
        self.minutes = minutes
        self.hours = UInt32(hours)
        self.daysOfMonth = UInt32(daysOfMonth)
        self.months = UInt16(months)
        self.daysOfWeek = UInt8(daysOfWeek)
        self.restrictsDayOfMonth = !fields[2].hasPrefix("*")
        self.restrictsDayOfWeek = !fields[4].hasPrefix("*")
        if restrictsDayOfMonth && !restrictsDayOfWeek && !Self.someMonthHasDay(months: self.months, days: self.daysOfMonth) {
            throw .neverFires(trimmed)
        }
    }

    /// Whether some selected month has some selected day (February counted with 29 days).
    private static func someMonthHasDay(months: UInt16, days: UInt32) -> Bool {
        let lengths = [0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return (1...12).contains { month in
            months & (1 << month) != 0 && (1...lengths[month]).contains { days & (1 << $0) != 0 }
        }
    }

    /// One field as a bit set: a comma-separated list of `*`, `N`, `A-B`, each with an optional `/STEP`.
    private static func parse(_ text: String, _ field: CronField) throws(CronParseError) -> UInt64 {
        var bits: UInt64 = 0
        for element in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            guard !element.isEmpty else { throw .invalidValue(field: field, text: text) }
            let parts = element.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard parts.count <= 2 else { throw .invalidStep(field: field, text: element) }
            var step = 1
            if parts.count == 2 {
                guard let value = Int(parts[1]), value >= 1 else { throw .invalidStep(field: field, text: element) }
                step = value
            }
            let range: ClosedRange<Int>
            if parts[0] == "*" {
                range = field == .dayOfWeek ? 0...6 : field.bounds
            } else if let dash = parts[0].firstIndex(of: "-") {
                let low = try value(String(parts[0][..<dash]), field)
                let high = try value(String(parts[0][parts[0].index(after: dash)...]), field)
                guard low <= high else { throw .reversedRange(field: field, text: parts[0]) }
                range = low...high
            } else {
                let single = try value(parts[0], field)
                // `N/STEP` means N through the end of the field, as in Vixie cron.
                range = parts.count == 2 ? single...field.bounds.upperBound : single...single
            }
            for number in stride(from: range.lowerBound, through: range.upperBound, by: step) {
                bits |= 1 << UInt64(number)
            }
        }
        return bits
    }

    /// A number or a name of `field`, checked against its range.
    private static func value(_ text: String, _ field: CronField) throws(CronParseError) -> Int {
        if let named = field.names[text.lowercased()] { return named }
        guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), let number = Int(text) else {
            throw .invalidValue(field: field, text: text)
        }
        guard field.bounds.contains(number) else { throw .outOfRange(field: field, value: number) }
        return number
    }
}
