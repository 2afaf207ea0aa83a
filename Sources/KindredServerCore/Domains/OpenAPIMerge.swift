import Foundation

/// Merges Kindred's OpenAPI documents into one, as text, keeping every line and comment as written.
///
/// Every document keeps one layout (a test checks it): top-level keys `openapi`, `info`,
/// `servers`, `tags` (a list of `- name:` items), `paths` (entries at two spaces) and
/// `components` (sections at two spaces, entries at four). The merge keeps the first document's
/// `openapi`, `info` and `servers`, then lists every document's tags, paths and components in
/// document order. A path may appear in one document only; a component of one name may appear in
/// several only as an identical copy (the shared error envelope, app header, bearer scheme).
enum OpenAPIMerge {
    /// One document's parts.
    struct Parts {
        var head: [String: [String]] = [:]
        var tags: [[String]] = []
        var paths: [(key: String, lines: [String])] = []
        var components: [(section: String, entries: [(key: String, lines: [String])])] = []
    }

    /// The merged document.
    /// - Parameter documents: (name, YAML text), the core's first.
    /// - Throws: `APIContractError` for a duplicate path, a differing shared component or a
    ///   document whose layout is not the expected one.
    static func merge(_ documents: [(name: String, text: String)]) throws(APIContractError) -> String {
        let parts = try documents.map { document throws(APIContractError) in try split(document.text, name: document.name) }
        guard let first = parts.first else { return "" }
        var out: [String] = []
        for key in ["openapi", "info", "servers"] { out += first.head[key] ?? [] }
        out.append("tags:")
        var seenTags = Set<String>()
        for part in parts {
            for tag in part.tags {
                let name = tag[0].dropFirst("  - name:".count).trimmingCharacters(in: .whitespaces)
                guard seenTags.insert(name).inserted else { throw .duplicateTag(name) }
                out += tag
            }
        }
        out.append("paths:")
        var seenPaths = Set<String>()
        for part in parts {
            for path in part.paths {
                guard seenPaths.insert(path.key).inserted else { throw .duplicatePath(path.key) }
                out += path.lines
            }
        }
        out.append("components:")
        var sectionOrder: [String] = []
        var sections: [String: [(key: String, lines: [String])]] = [:]
        for part in parts {
            for (section, entries) in part.components {
                if sections[section] == nil { sectionOrder.append(section); sections[section] = [] }
                for entry in entries {
                    if let existing = sections[section]!.first(where: { $0.key == entry.key }) {
                        guard existing.lines == entry.lines else { throw .conflictingComponent(section: section, name: entry.key) }
                        continue
                    }
                    sections[section]!.append(entry)
                }
            }
        }
        for section in sectionOrder {
            out.append("  \(section):")
            for entry in sections[section]! { out += entry.lines }
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// A document split into its parts.
    static func split(_ text: String, name: String) throws(APIContractError) -> Parts {
        var parts = Parts()
        var topKey: String?
        var section: String?
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            if line.isEmpty { continue }
            let indent = line.prefix { $0 == " " }.count
            if indent == 0 {
                guard let colon = line.firstIndex(of: ":"), !line.hasPrefix("#") else {
                    if line.hasPrefix("#") { continue }
                    throw .unexpectedLayout(document: name, line: line)
                }
                let key = String(line[..<colon])
                topKey = key
                section = nil
                switch key {
                case "openapi", "info", "servers": parts.head[key] = [line]
                case "tags", "paths", "components": break
                default: throw .unexpectedLayout(document: name, line: line)
                }
                continue
            }
            switch topKey {
            case "openapi", "info", "servers":
                parts.head[topKey!, default: []].append(line)
            case "tags":
                if line.hasPrefix("  - ") { parts.tags.append([line]) } else if !parts.tags.isEmpty {
                    parts.tags[parts.tags.count - 1].append(line)
                } else { throw .unexpectedLayout(document: name, line: line) }
            case "paths":
                if indent == 2 { parts.paths.append((key: key(of: line), lines: [line])) } else if !parts.paths.isEmpty {
                    parts.paths[parts.paths.count - 1].lines.append(line)
                } else { throw .unexpectedLayout(document: name, line: line) }
            case "components":
                if indent == 2 {
                    section = key(of: line)
                    parts.components.append((section: section!, entries: []))
                } else if indent == 4, section != nil {
                    parts.components[parts.components.count - 1].entries.append((key: key(of: line), lines: [line]))
                } else if let last = parts.components.last, !last.entries.isEmpty {
                    let index = parts.components.count - 1
                    parts.components[index].entries[last.entries.count - 1].lines.append(line)
                } else { throw .unexpectedLayout(document: name, line: line) }
            default:
                throw .unexpectedLayout(document: name, line: line)
            }
        }
        return parts
    }

    /// The key of a `key:` line.
    private static func key(of line: String) -> String {
        let trimmed = line.drop { $0 == " " }
        return String(trimmed.prefix { $0 != ":" })
    }
}
