import Foundation

/// Results as CSV (RFC 4180, https://www.rfc-editor.org/rfc/rfc4180): one row per result under the
/// header `date,game,puzzle,score,maxAttempts,completed`, CRLF line endings (docs/streaksync-device.md,
/// "CSV export").
public enum ResultsCSV {
    /// The header's column names, in order.
    public static let header = ["date", "game", "puzzle", "score", "maxAttempts", "completed"]

    /// One imported row.
    public struct Row: Hashable, Sendable {
        /// The local day the result counts for.
        public var date: LocalDay
        /// The game (one of `Game.all`).
        public var game: GameID
        /// The puzzle number, or nil when the column is empty.
        public var puzzle: Int?
        /// The score.
        public var score: Int
        /// The worst score of a completed result (`maxAttempts`).
        public var max: Int
        /// Whether the puzzle was solved.
        public var completed: Bool

        /// A row from its parts.
        public init(date: LocalDay, game: GameID, puzzle: Int?, score: Int, max: Int, completed: Bool) {
            self.date = date
            self.game = game
            self.puzzle = puzzle
            self.score = score
            self.max = max
            self.completed = completed
        }

        /// The row of `result`.
        public init(_ result: GameResult) {
            self.init(
                date: result.day, game: result.game, puzzle: result.puzzle, score: result.score,
                max: result.maxScore, completed: result.completed)
        }

        /// The row's fields in header order.
        public var fields: [String] {
            [date.description, game.rawValue, puzzle.map(String.init) ?? "", String(score), String(max),
             completed ? "true" : "false"]
        }
    }

    // MARK: - Export

    /// The CSV of `results`, in the order given: the header, then one CRLF-terminated line per result.
    ///
    /// - Parameter results: the results to write.
    /// - Returns: the CSV text.
    public static func export(_ results: [GameResult]) -> String {
        var text = record(header)
        for result in results { text += record(Row(result).fields) }
        return text
    }

    /// One CSV record of `fields` ending in CRLF, each field quoted when it holds a comma, quote, CR or LF.
    public static func record(_ fields: [String]) -> String {
        fields.map(quoted).joined(separator: ",") + "\r\n"
    }

    /// `field` as written in a record: as is, or in quotes with its quotes doubled when it needs them.
    public static func quoted(_ field: String) -> String {
        let needsQuotes = field.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
        guard needsQuotes else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    // MARK: - Import

    /// Parses CSV written by `export` (or by hand): CRLF or LF line endings, quoted fields, a header
    /// check; blank lines are skipped.
    ///
    /// - Parameter text: the CSV text.
    /// - Returns: the rows, in order.
    /// - Throws: `StreakCSVError` naming the first bad line.
    public static func parse(_ text: String) throws(StreakCSVError) -> [Row] {
        let records = try records(text)
        guard let first = records.first, first.fields == header else {
            throw .badHeader(records.first.map { $0.fields.joined(separator: ",") } ?? "")
        }
        var rows: [Row] = []
        for record in records.dropFirst() {
            rows.append(try row(record.fields, line: record.line))
        }
        return rows
    }

    /// The records of `text` with the line each starts on; a record of one empty field (a blank line)
    /// is left out.
    static func records(_ text: String) throws(StreakCSVError) -> [(line: Int, fields: [String])] {
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var line = 1
        var recordLine = 1
        var inQuotes = false
        var quoteLine = 1
        var afterQuote = false
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()

        func endRecord() {
            fields.append(String(field))
            if !(fields.count == 1 && fields[0].isEmpty) { records.append((recordLine, fields)) }
            fields = []
            field = String.UnicodeScalarView()
            afterQuote = false
        }

        while let scalar = pending {
            pending = scalars.next()
            if inQuotes {
                if scalar == "\"" {
                    if pending == "\"" {
                        field.append("\"")
                        pending = scalars.next()
                    } else {
                        inQuotes = false
                        afterQuote = true
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.append(scalar)
                }
                continue
            }
            switch scalar {
            case ",":
                fields.append(String(field))
                field = String.UnicodeScalarView()
                afterQuote = false
            case "\r" where pending == "\n":
                break
            case "\n":
                endRecord()
                line += 1
                recordLine = line
            case "\"":
                guard field.isEmpty, !afterQuote else { throw .strayQuote(line: line) }
                inQuotes = true
                quoteLine = line
            default:
                guard !afterQuote else { throw .strayQuote(line: line) }
                field.append(scalar)
            }
        }
        if inQuotes { throw .unterminatedQuote(line: quoteLine) }
        if !field.isEmpty || !fields.isEmpty || afterQuote { endRecord() }
        return records
    }

    private static func row(_ fields: [String], line: Int) throws(StreakCSVError) -> Row {
        guard fields.count == header.count else {
            throw .wrongColumnCount(line: line, expected: header.count, found: fields.count)
        }
        guard let date = LocalDay(fields[0]) else { throw .badDate(line: line, value: fields[0]) }
        let game = GameID(rawValue: fields[1])
        guard Game.all.contains(where: { $0.id == game }) else { throw .unknownGame(line: line, value: fields[1]) }
        func integer(_ index: Int) throws(StreakCSVError) -> Int {
            guard let value = Int(fields[index]) else {
                throw .notAnInteger(line: line, field: header[index], value: fields[index])
            }
            return value
        }
        let puzzle: Int? = fields[2].isEmpty ? nil : try integer(2)
        let completed: Bool
        switch fields[5] {
        case "true": completed = true
        case "false": completed = false
        default: throw .badBool(line: line, value: fields[5])
        }
        return Row(date: date, game: game, puzzle: puzzle, score: try integer(3), max: try integer(4), completed: completed)
    }
}
