import Foundation

/// SoulMate's user-facing strings in one language, from the one table of Turkish and English
/// (`SoulMateString` keys). Chosen by locale; any language but Turkish gets English.
///
/// ```swift
/// let strings = SoulMateStrings(locale: "tr-TR")
/// strings(.pairRequestReceived, "Ayşe")   // "Ayşe seninle eşleşmek istiyor."
/// ```
public struct SoulMateStrings: Sendable {
    /// The languages the table holds.
    public enum Language: String, CaseIterable, Sendable {
        /// English (the fallback).
        case english = "en"
        /// Turkish.
        case turkish = "tr"
    }

    /// The language of this value's strings.
    public let language: Language

    /// The strings of `language`.
    public init(language: Language) {
        self.language = language
    }

    /// The strings for a locale identifier (`tr`, `tr-TR`, `tr_TR`, `TR-tr`, `en-GB`, …):
    /// Turkish when the language part is `tr`, English otherwise.
    public init(locale: String) {
        let code = locale.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == "@" || $0 == "." }).first
        language = code.map { $0.lowercased() } == Language.turkish.rawValue ? .turkish : .english
    }

    /// The strings for a Foundation locale.
    public init(locale: Locale) {
        self.init(locale: locale.identifier)
    }

    /// The table of a language.
    static func table(_ language: Language) -> [SoulMateString: String] {
        switch language {
        case .english: english
        case .turkish: turkish
        }
    }

    /// The template of a key in this language, placeholders unfilled (English when this
    /// language lacks the key, the key's name when both do; the tests keep both complete).
    public func template(_ key: SoulMateString) -> String {
        Self.table(language)[key] ?? Self.english[key] ?? key.rawValue
    }

    /// A key's string without arguments.
    public subscript(_ key: SoulMateString) -> String {
        Self.fill(template(key), with: [])
    }

    /// A key's string with its arguments in place of its placeholders.
    /// - Parameters:
    ///   - key: the string.
    ///   - arguments: one per placeholder, in the key's documented order.
    /// - Returns: the text; a placeholder without an argument becomes empty.
    public func callAsFunction(_ key: SoulMateString, _ arguments: String...) -> String {
        Self.fill(template(key), with: arguments)
    }

    /// Fills `%@` (the next argument), `%N$@` (argument N, from 1) and `%%` (a percent sign).
    static func fill(_ template: String, with arguments: [String]) -> String {
        var output = ""
        var next = 0
        var index = template.startIndex
        while index < template.endIndex {
            let character = template[index]
            guard character == "%", let placeholder = placeholder(in: template, at: index) else {
                output.append(character)
                index = template.index(after: index)
                continue
            }
            switch placeholder.kind {
            case .percent:
                output.append("%")
            case .next:
                if next < arguments.count { output += arguments[next] }
                next += 1
            case .position(let position):
                if position >= 1, position <= arguments.count { output += arguments[position - 1] }
            }
            index = placeholder.end
        }
        return output
    }

    /// A placeholder found in a template.
    struct Placeholder: Equatable {
        enum Kind: Equatable {
            case percent
            case next
            case position(Int)
        }
        let kind: Kind
        let end: String.Index
    }

    /// The placeholder starting at `index` (a `%`), or `nil` when the `%` starts none.
    static func placeholder(in template: String, at index: String.Index) -> Placeholder? {
        var cursor = template.index(after: index)
        guard cursor < template.endIndex else { return nil }
        if template[cursor] == "%" { return Placeholder(kind: .percent, end: template.index(after: cursor)) }
        if template[cursor] == "@" { return Placeholder(kind: .next, end: template.index(after: cursor)) }
        var digits = ""
        while cursor < template.endIndex, let digit = template[cursor].wholeNumberValue, template[cursor].isASCII {
            digits.append(String(digit))
            cursor = template.index(after: cursor)
        }
        guard !digits.isEmpty, digits.count <= 2, cursor < template.endIndex, template[cursor] == "$" else { return nil }
        cursor = template.index(after: cursor)
        guard cursor < template.endIndex, template[cursor] == "@", let position = Int(digits) else { return nil }
        return Placeholder(kind: .position(position), end: template.index(after: cursor))
    }

    /// The argument positions a template's placeholders use, sorted (`%@` counts in order from 1):
    /// two languages of a key must use the same positions.
    public static func argumentPositions(of template: String) -> [Int] {
        var positions: [Int] = []
        var next = 0
        var index = template.startIndex
        while index < template.endIndex {
            if template[index] == "%", let placeholder = placeholder(in: template, at: index) {
                switch placeholder.kind {
                case .percent: break
                case .next:
                    next += 1
                    positions.append(next)
                case .position(let position): positions.append(position)
                }
                index = placeholder.end
            } else {
                index = template.index(after: index)
            }
        }
        return positions.sorted()
    }
}
