/// Every way a results CSV can fail to import; row errors name the 1-based line the row starts on.
public enum StreakCSVError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The first line is not `date,game,puzzle,score,maxAttempts,completed`.
    case badHeader(String)
    /// A row has `found` fields where the header has `expected`.
    case wrongColumnCount(line: Int, expected: Int, found: Int)
    /// A quoted field is never closed (it starts on `line`).
    case unterminatedQuote(line: Int)
    /// A quote appears inside an unquoted field, or text follows a closing quote.
    case strayQuote(line: Int)
    /// The date is not a `yyyy-MM-dd` calendar day.
    case badDate(line: Int, value: String)
    /// The catalog (`Game.all`) has no game with this id.
    case unknownGame(line: Int, value: String)
    /// A number column (`field`) holds something that is not an integer.
    case notAnInteger(line: Int, field: String, value: String)
    /// `completed` is neither `true` nor `false`.
    case badBool(line: Int, value: String)

    /// A stable snake_case code for scripts.
    public var code: String {
        switch self {
        case .badHeader: "bad_header"
        case .wrongColumnCount: "wrong_column_count"
        case .unterminatedQuote: "unterminated_quote"
        case .strayQuote: "stray_quote"
        case .badDate: "bad_date"
        case .unknownGame: "unknown_game"
        case .notAnInteger: "not_an_integer"
        case .badBool: "bad_bool"
        }
    }

    /// The line the problem is on (the header is line 1).
    public var line: Int {
        switch self {
        case .badHeader: 1
        case .wrongColumnCount(let line, _, _), .unterminatedQuote(let line), .strayQuote(let line),
            .badDate(let line, _), .unknownGame(let line, _), .notAnInteger(let line, _, _), .badBool(let line, _):
            line
        }
    }

    /// One line for people and logs.
    public var description: String {
        switch self {
        case .badHeader(let found): "line 1: expected the header \(ResultsCSV.header.joined(separator: ",")), found \(found)"
        case .wrongColumnCount(let line, let expected, let found): "line \(line): \(found) fields, expected \(expected)"
        case .unterminatedQuote(let line): "line \(line): a quoted field is never closed"
        case .strayQuote(let line): "line \(line): a quote inside an unquoted field or after a closing quote"
        case .badDate(let line, let value): "line \(line): \(value) is not a yyyy-MM-dd date"
        case .unknownGame(let line, let value): "line \(line): no game has the id \(value)"
        case .notAnInteger(let line, let field, let value): "line \(line): \(field) \(value) is not an integer"
        case .badBool(let line, let value): "line \(line): completed \(value) is neither true nor false"
        }
    }
}
