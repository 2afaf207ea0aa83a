/// Reads one game's share text. The catalog finds header lines with `isHeader` and hands each parser
/// the block from its header to the next header of any game.
public protocol ShareParser: Sendable {
    /// The game this parser reads.
    var game: Game { get }
    /// The lower-case ASCII letters a header line can start with (after `ShareLine.contentStart`),
    /// so the catalog asks only the parsers that can match; empty means any.
    var headerInitials: String { get }
    /// Whether `line` starts a share of this game. Cheap, and strict: a line of chat that merely
    /// names the game is not a header.
    func isHeader(_ line: ShareLine) -> Bool
    /// Reads the share whose header is `lines.first`; the later lines run to the next header.
    /// - Throws: `StreakKitError.malformed` or `.outOfBounds`; never returns a result outside the game's bounds.
    func parse(_ lines: ArraySlice<ShareLine>) throws(StreakKitError) -> ParsedShare
    /// Reads a text the player said is a share of this game but that has no header line (manual
    /// entry). The default refuses it.
    func parseWithoutHeader(_ lines: ArraySlice<ShareLine>) throws(StreakKitError) -> ParsedShare
}

extension ShareParser {
    /// Any initial.
    public var headerInitials: String { "" }

    /// Refuses a share without its header.
    public func parseWithoutHeader(_ lines: ArraySlice<ShareLine>) throws(StreakKitError) -> ParsedShare {
        throw .malformed(game: game.id, reason: "no \(game.name) header line")
    }
}

// MARK: - Helpers the parsers share

extension Scan {
    /// Consumes optional white space, a `#` (required or optional) and a puzzle number.
    mutating func puzzleNumber(hashRequired: Bool) -> Int? {
        let saved = index
        skipSpaces()
        let hadHash = scalar(0x23)
        if hashRequired && !hadHash { index = saved; return nil }
        skipSpaces()
        guard let number = number() else { index = saved; return nil }
        return number
    }

    /// Skips white space and emoji (anything that is neither ASCII nor a letter).
    mutating func skipDecoration() {
        while let p = peek {
            if ShareLine.isBlank(p) || (p.value >= 0x80 && !p.properties.isAlphabetic) { index += 1 } else { break }
        }
    }

    /// Consumes white space, then the first of `words` found (ASCII, without case) and returns its index.
    mutating func oneOf(_ words: [StaticString]) -> Int? {
        for (i, w) in words.enumerated() where word(w) {
            return i
        }
        return nil
    }

    /// Whether the next scalar is not an ASCII letter or digit (a word ends here).
    var atWordBoundary: Bool {
        guard let p = peek else { return true }
        return !ShareLine.isASCIIAlphanumeric(p)
    }

    /// Consumes a US date `M/D/YYYY` and returns it.
    mutating func slashDate() -> LocalDay? {
        let saved = index
        skipSpaces()
        guard let month = number(), month <= 12, scalar(0x2F), let day = number(), day <= 31, scalar(0x2F),
            let year = number(), (2000...2099).contains(year), let date = LocalDay(year: year, month: month, day: day)
        else { index = saved; return nil }
        return date
    }

    /// Consumes `May 19, 2026` (a month name, full or three letters) and returns it.
    mutating func namedDate() -> LocalDay? {
        let saved = index
        skipSpaces()
        let months: [StaticString] = [
            "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
            "november", "december",
        ]
        let short: [StaticString] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        var month: Int?
        for (i, name) in months.enumerated() where literal(name) && atWordBoundary { month = i + 1; break }
        if month == nil {
            for (i, name) in short.enumerated() where literal(name) {
                _ = scalar(0x2E)
                if atWordBoundary { month = i + 1; break }
            }
        }
        skipSpaces()
        guard let month, let day = number(), day <= 31 else { index = saved; return nil }
        _ = scalar(0x2C)
        skipSpaces()
        guard let year = number(), (2000...2099).contains(year), let date = LocalDay(year: year, month: month, day: day)
        else { index = saved; return nil }
        return date
    }

    /// Consumes a date in either format.
    mutating func date() -> LocalDay? { slashDate() ?? namedDate() }
}

/// Throws `.outOfBounds` unless `range` holds `value`.
func requireBounds(_ game: GameID, _ field: String, _ value: Int, _ range: ClosedRange<Int>) throws(StreakKitError) {
    guard range.contains(value) else { throw .outOfBounds(game: game, field: field, value: value) }
}

/// The block's lines after the header, each with a cursor at its start.
func bodyScans(_ lines: ArraySlice<ShareLine>) -> [Scan] { lines.dropFirst().map { Scan($0) } }
