import Foundation
import Testing

/// docs/server.md, "Writing SQL": statements bind their values and take dialect-dependent text
/// from the dialect's capabilities, so `unsafeRaw` splices and comparisons of a dialect's name
/// stay where they are unavoidable. A new one outside the allow-list fails here.
@Suite struct SQLSpliceRuleTests {
    /// The files allowed to splice with `unsafeRaw`, and how many splices each: every one
    /// carries a comment beginning `// unsafeRaw:` that says why.
    static let unsafeRawAllowed: [String: Int] = [
        // An index name in an existing migration, written as deployed databases recorded it.
        "Sources/KindredServerCore/Accounts/AccountsSchema+ConsoleIndexes.swift": 1,
    ]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every Swift file under Sources/, by path relative to the package, with its lines.
    static func sources() throws -> [(path: String, lines: [Substring])] {
        let sources = root.appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else { return [] }
        var files: [(String, [Substring])] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            let path = String(url.path.dropFirst(root.path.count + 1))
            files.append((path, try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// A line's code, without a `//` comment.
    static func code(_ line: Substring) -> Substring {
        line.range(of: "//").map { line[..<$0.lowerBound] } ?? line
    }

    @Test func unsafeRawOnlyWhereAllowedAndExplained() throws {
        let files = try Self.sources()
        #expect(files.count > 100, "found \(files.count) files under \(Self.root.path)/Sources")
        var found: [String: Int] = [:]
        for (path, lines) in files {
            for (index, line) in lines.enumerated() where Self.code(line).contains("unsafeRaw:") {
                found[path, default: 0] += 1
                // The statement's own lines: the comment is at most five lines above the splice.
                let above = lines[max(0, index - 5)..<index]
                #expect(
                    above.contains { $0.contains("// unsafeRaw:") },
                    "\(path):\(index + 1): an unsafeRaw splice without a `// unsafeRaw:` comment above it saying why"
                )
            }
        }
        for (path, count) in found where count > Self.unsafeRawAllowed[path, default: 0] {
            Issue.record("\(path): \(count) unsafeRaw splice(s), \(Self.unsafeRawAllowed[path, default: 0]) allowed: bind the value or take the text from the dialect (docs/server.md, \"Writing SQL\")")
        }
        for (path, count) in Self.unsafeRawAllowed where found[path, default: 0] < count {
            Issue.record("\(path): allows \(count) unsafeRaw splice(s) but has \(found[path, default: 0]): lower the allow-list")
        }
    }

    @Test func noDialectNameComparisonsOutsideTheStore() throws {
        for (path, lines) in try Self.sources() where !path.hasPrefix("Sources/KindredStore/") {
            for (index, line) in lines.enumerated() {
                let code = Self.code(line)
                if code.contains("dialect.name ==") || code.contains("dialect.name !=") || code.contains("\"postgresql\"") {
                    Issue.record("\(path):\(index + 1): branches on the database's name: ask a capability (SQLDialect+Features)")
                }
            }
        }
    }
}
