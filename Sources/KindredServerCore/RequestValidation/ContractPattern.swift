import Foundation

/// A contract's `pattern`, compiled once: JSON Schema's semantics (ECMA-262 syntax, matched
/// anywhere in the string unless the pattern anchors itself with `^`/`$`), evaluated by ICU
/// through `NSRegularExpression`, whose syntax covers what the contracts use (classes,
/// quantifiers, anchors, groups, alternation).
// `@unchecked Sendable`: an `NSRegularExpression` is immutable once made, and Foundation
// documents it as safe to use from several threads at once.
struct ContractPattern: @unchecked Sendable {
    /// The pattern as the document writes it.
    let source: String
    private let expression: NSRegularExpression

    /// Compiles `source`.
    /// - Throws: `ContractConstraintError.invalidPattern`.
    init(_ source: String, document: String) throws(ContractConstraintError) {
        do {
            expression = try NSRegularExpression(pattern: source)
        } catch {
            throw .invalidPattern(document: document, pattern: source, reason: "\(error)")
        }
        self.source = source
    }

    /// Whether the pattern matches somewhere in `string`.
    func matches(_ string: String) -> Bool {
        expression.firstMatch(in: string, range: NSRange(location: 0, length: string.utf16.count)) != nil
    }
}
