import KindredServerCore
import Foundation

/// An `application/x-www-form-urlencoded` body or query string, as the console's forms send it.
struct AdminForm: Sendable, Equatable {
    /// The fields; the first value wins when a name repeats.
    private(set) var fields: [String: String] = [:]

    /// Parses `name=value&…`: `+` is a space, `%XX` a byte of UTF-8; a malformed escape keeps its text.
    init(encoded text: Substring) {
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            guard !name.isEmpty, fields[name] == nil else { continue }
            fields[name] = parts.count > 1 ? Self.decode(parts[1]) : ""
        }
    }

    /// The value of `name`, trimmed; nil when absent or blank.
    subscript(_ name: String) -> String? {
        guard let value = fields[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }

    /// The value of `name` exactly as sent (passwords are not trimmed).
    func raw(_ name: String) -> String? { fields[name] }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
