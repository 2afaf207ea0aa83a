import Foundation
import KindredServerCore

/// One request that breaks exactly one constraint of a contract, and the refusal it must get.
///
/// Made from the document alone (`contractViolations`), independently of the server's compiled
/// constraints: every `maxLength`, `minLength`, `pattern`, `minimum`, `maximum`,
/// `exclusiveMinimum`, `exclusiveMaximum`, `minItems`, `maxItems` and `uniqueItems` of every
/// parameter and JSON body of every operation gives one case, so a constraint added to a
/// document is covered by the tests that use them without a new line of test.
package struct ContractViolation: Sendable, CustomStringConvertible {
    /// `METHOD /path/{template}`.
    package let operation: String
    package let method: String
    /// The path with valid values for its parameters (one broken, when the case is about it),
    /// and the query.
    package let uri: String
    /// Header parameters to send (name, value).
    package let headers: [String: String]
    /// The JSON body, when the case is about it.
    package let body: String?
    /// Where the broken value is, as the refusal's message names it (`body.sessionId`).
    package let location: String
    /// The keyword broken.
    package let keyword: String
    /// The status and code of the refusal (400 `bad_request`, or the contract's `x-kindred-code`).
    package let status: Int
    package let code: String

    package var description: String { "\(operation) \(location) \(keyword)" }
}

/// Every constraint case of a contract (`ContractViolation`).
/// - Throws: `ContractConstraintError` for a document that is not YAML.
package func contractViolations(_ document: [UInt8], name: String) throws -> [ContractViolation] {
    let root = try ContractNode.parse(yaml: String(decoding: document, as: UTF8.self), document: name)
    return ContractCases(root: root).all()
}

/// The walk behind `contractViolations`.
private struct ContractCases {
    let root: ContractNode

    /// The constraint keywords, and whether each needs a number (the rest are strings' or arrays').
    static let keywords = [
        "minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems",
        "maxItems", "uniqueItems",
    ]

    func resolve(_ node: ContractNode) -> ContractNode {
        guard let reference = node["$ref"]?.text, reference.hasPrefix("#/") else { return node }
        var target = root
        for key in reference.dropFirst(2).split(separator: "/") { target = target[String(key)] ?? .mapping([]) }
        return resolve(target)
    }

    /// The schema's keywords with those of its `$ref` and `allOf` parts (the part's own win).
    func flattened(_ node: ContractNode, depth: Int = 0) -> [(key: String, value: ContractNode)] {
        guard depth < 16 else { return [] }
        var members = node.members.filter { $0.key != "$ref" && $0.key != "allOf" }
        var parts: [ContractNode] = node["allOf"]?.elements ?? []
        if node["$ref"] != nil { parts.insert(resolve(node), at: 0) }
        for part in parts {
            for member in flattened(part, depth: depth + 1) where !members.contains(where: { $0.key == member.key }) {
                members.append(member)
            }
        }
        return members
    }

    func all() -> [ContractViolation] {
        var cases: [ContractViolation] = []
        for (path, item) in root["paths"]?.members ?? [] {
            for (method, operation) in item.members where ["get", "put", "post", "delete", "patch"].contains(method) {
                var parameters: [ContractNode] = []
                for parameter in (item["parameters"]?.elements ?? []) + (operation["parameters"]?.elements ?? []) {
                    let resolved = resolve(parameter)
                    parameters.removeAll { $0["name"]?.text == resolved["name"]?.text && $0["in"]?.text == resolved["in"]?.text }
                    parameters.append(resolved)
                }
                let request = Request(method: method.uppercased(), path: path, parameters: parameters, cases: self)
                for parameter in parameters {
                    guard let name = parameter["name"]?.text, let place = parameter["in"]?.text, let schema = parameter["schema"] else { continue }
                    for broken in brokenValues(schema, code: operation["x-kindred-code"]?.text, steps: []) {
                        if place == "path", broken.value.plain.isEmpty { continue }  // an empty segment never reaches the route
                        cases.append(request.breaking(parameter: name, in: place, with: broken))
                    }
                }
                if let body = operation["requestBody"].map(resolve), let schema = body["content"]?["application/json"]?["schema"] {
                    for broken in brokenValues(schema, code: operation["x-kindred-code"]?.text, steps: []) {
                        cases.append(request.breaking(bodyWith: broken))
                    }
                }
            }
        }
        return cases
    }

    /// One way to break a schema: the broken value, where it is below the schema, and the code.
    struct Broken {
        var value: JSONText
        var steps: [String]
        var keyword: String
        var code: String?
        /// For array parameters: the elements.
        var elements: [JSONText]?
    }

    /// Every single-keyword violation in `schema` and below it.
    func brokenValues(_ schema: ContractNode, code inherited: String?, steps: [String], depth: Int = 0) -> [Broken] {
        guard depth < 6 else { return [] }  // recursive schemas: a few levels prove the walk
        let members = flattened(schema)
        let node = ContractNode.mapping(members)
        let code = node["x-kindred-code"]?.text ?? inherited
        var found: [Broken] = []
        func add(_ keyword: String, _ value: JSONText?, elements: [JSONText]? = nil) {
            guard let value else { return }
            found.append(Broken(value: value, steps: steps, keyword: keyword, code: code, elements: elements))
        }
        let type = node["type"]?.text ?? node["type"]?.elements.compactMap(\.text).first { $0 != "null" }
        let minLength = node["minLength"]?.text.flatMap { Int($0) }
        let maxLength = node["maxLength"]?.text.flatMap { Int($0) }
        if let maxLength { add("maxLength", .string(String(repeating: "é", count: maxLength + 1))) }
        if let minLength, minLength > 0 { add("minLength", .string(String(repeating: "a", count: minLength - 1))) }
        if let pattern = node["pattern"]?.text, let regex = try? NSRegularExpression(pattern: pattern) {
            let length = max(minLength ?? 1, 1)
            let candidates = ["!", "~", " ", "😀"].map { String(repeating: $0, count: length) }
            let miss = candidates.first { regex.firstMatch(in: $0, range: NSRange(location: 0, length: $0.utf16.count)) == nil }
            add("pattern", miss.map(JSONText.string))
        }
        let integer = type == "integer"
        for (keyword, offset) in [("minimum", -1.0), ("maximum", 1.0), ("exclusiveMinimum", 0), ("exclusiveMaximum", 0)] {
            guard let bound = node[keyword]?.text.flatMap(Double.init) else { continue }
            add(keyword, .number(bound + (integer ? offset : offset / 2)))
        }
        if type == "array" || node["items"] != nil {
            let item = node["items"].map { validValue($0) } ?? .string("a")
            if let maxItems = node["maxItems"]?.text.flatMap({ Int($0) }) {
                let elements = (0...maxItems).map { index in item.distinct(index) }
                add("maxItems", .array(elements), elements: elements)
            }
            if let minItems = node["minItems"]?.text.flatMap({ Int($0) }), minItems > 0 {
                let elements = (0..<(minItems - 1)).map { index in item.distinct(index) }
                add("minItems", .array(elements), elements: elements)
            }
            if node["uniqueItems"]?.text == "true" { add("uniqueItems", .array([item, item]), elements: [item, item]) }
            if let items = node["items"] {
                for broken in brokenValues(items, code: code, steps: steps + ["[0]"], depth: depth + 1) {
                    var wrapped = broken
                    wrapped.elements = broken.steps.count == steps.count + 1 ? [broken.value] : nil
                    found.append(wrapped)
                }
            }
        }
        for (name, property) in node["properties"]?.members ?? [] {
            found += brokenValues(property, code: code, steps: steps + [".\(name)"], depth: depth + 1)
        }
        if let additional = node["additionalProperties"], case .mapping = additional {
            found += brokenValues(additional, code: code, steps: steps + [".extra"], depth: depth + 1)
        }
        return found
    }

    /// A value that satisfies `schema`'s own constraints (for the other parameters and array items).
    func validValue(_ schema: ContractNode) -> JSONText {
        let node = ContractNode.mapping(flattened(schema))
        let type = node["type"]?.text ?? node["type"]?.elements.compactMap(\.text).first { $0 != "null" }
        switch type {
        case "integer", "number":
            if let minimum = node["minimum"]?.text.flatMap(Double.init) { return .number(minimum) }
            if let maximum = node["maximum"]?.text.flatMap(Double.init) { return .number(min(1, maximum)) }
            return .number(1)
        case "object": return .object([])
        case "array": return .array([])
        case "boolean": return .literal("true")
        default:
            if let pattern = node["pattern"]?.text, let made = PatternExample.make(pattern) { return .string(made) }
            if let enumeration = node["enum"]?.elements.first?.text { return .string(enumeration) }
            return .string(String(repeating: "a", count: max(node["minLength"]?.text.flatMap { Int($0) } ?? 1, 1)))
        }
    }
}

/// A request under construction: valid values for every path parameter.
private struct Request {
    let method: String
    let path: String
    let operation: String
    var pathValues: [String: String] = [:]

    init(method: String, path: String, parameters: [ContractNode], cases: ContractCases) {
        self.method = method
        self.path = path
        operation = "\(method) \(path)"
        for parameter in parameters where parameter["in"]?.text == "path" {
            guard let name = parameter["name"]?.text else { continue }
            pathValues[name] = parameter["schema"].map { cases.validValue($0).plain } ?? "a"
        }
    }

    func uri(_ values: [String: String], query: String = "") -> String {
        var uri = path
        for (name, value) in values {
            uri = uri.replacingOccurrences(of: "{\(name)}", with: value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/", "?", "#", ";"])) ?? value)
        }
        return uri + query
    }

    func refusal(_ code: String?) -> (Int, String) {
        guard let code else { return (400, "bad_request") }
        let parts = code.split(separator: " ")
        if parts.count == 2, let status = Int(parts[0]) { return (status, String(parts[1])) }
        return (400, code)
    }

    func breaking(parameter name: String, in place: String, with broken: ContractCases.Broken) -> ContractViolation {
        let (status, code) = refusal(broken.code)
        var values = pathValues
        var query = ""
        var headers: [String: String] = [:]
        let texts = broken.elements.map { $0.map(\.plain) } ?? [broken.value.plain]
        switch place {
        case "path": values[name] = texts[0]
        case "query":
            query = "?" + texts.map { "\(name)=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0)" }.joined(separator: "&")
        default: headers[name] = texts[0]
        }
        return ContractViolation(
            operation: operation, method: method, uri: uri(values, query: query), headers: headers, body: nil,
            location: "\(place).\(name)" + broken.steps.joined(), keyword: broken.keyword, status: status, code: code
        )
    }

    func breaking(bodyWith broken: ContractCases.Broken) -> ContractViolation {
        let (status, code) = refusal(broken.code)
        var value = broken.value
        for step in broken.steps.reversed() {
            value = step == "[0]" ? .array([value]) : .object([(String(step.dropFirst()), value)])
        }
        return ContractViolation(
            operation: operation, method: method, uri: uri(pathValues), headers: [:], body: value.json,
            location: "body" + broken.steps.joined(), keyword: broken.keyword, status: status, code: code
        )
    }
}

/// A JSON value written by the cases.
private indirect enum JSONText {
    case string(String)
    case number(Double)
    case literal(String)
    case array([JSONText])
    case object([(String, JSONText)])

    var json: String {
        switch self {
        case .string(let text):
            let data = try! JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed])
            return String(decoding: data, as: UTF8.self)
        case .number(let number): return number == number.rounded() ? String(Int64(number)) : String(number)
        case .literal(let text): return text
        case .array(let elements): return "[" + elements.map(\.json).joined(separator: ",") + "]"
        case .object(let members): return "{" + members.map { JSONText.string($0.0).json + ":" + $0.1.json }.joined(separator: ",") + "}"
        }
    }

    /// The value as a parameter's text.
    var plain: String {
        switch self {
        case .string(let text): text
        default: json
        }
    }

    /// A variant of a valid item that differs from other indices (for arrays whose items are unique).
    func distinct(_ index: Int) -> JSONText {
        switch self {
        case .number(let number): .number(number + Double(index))
        default: self
        }
    }
}

/// The shortest string a simple pattern matches (classes, literals, escapes, groups with
/// alternatives, `?*+{n,m}`), checked against the pattern; nil for what it cannot make.
enum PatternExample {
    static func make(_ pattern: String) -> String? {
        var characters = Array(pattern)
        if characters.first == "^" { characters.removeFirst() }
        if characters.last == "$" { characters.removeLast() }
        var index = 0
        guard let made = sequence(characters, &index), index == characters.count else { return nil }
        guard let regex = try? NSRegularExpression(pattern: pattern),
            regex.firstMatch(in: made, range: NSRange(location: 0, length: made.utf16.count)) != nil
        else { return nil }
        return made
    }

    /// Atoms up to `)` or `|` (an alternative).
    private static func sequence(_ characters: [Character], _ index: inout Int) -> String? {
        var out = ""
        while index < characters.count, characters[index] != ")", characters[index] != "|" {
            guard let atom = atom(characters, &index) else { return nil }
            let count = quantifier(characters, &index)
            out += String(repeating: atom, count: count)
        }
        return out
    }

    private static func atom(_ characters: [Character], _ index: inout Int) -> String? {
        let character = characters[index]
        index += 1
        switch character {
        case "[":
            guard index < characters.count else { return nil }
            var first = characters[index]
            if first == "\\", index + 1 < characters.count { first = characters[index + 1] }
            while index < characters.count, characters[index] != "]" { index += characters[index] == "\\" ? 2 : 1 }
            index += 1
            return String(first)
        case "(":
            let made = sequence(characters, &index)
            while index < characters.count, characters[index] == "|" {
                index += 1
                _ = sequence(characters, &index)
            }
            guard index < characters.count, characters[index] == ")" else { return nil }
            index += 1
            return made
        case "\\":
            guard index < characters.count else { return nil }
            index += 1
            let escaped = characters[index - 1]
            return escaped == "d" ? "0" : escaped == "w" ? "a" : String(escaped)
        case ".": return "a"
        default: return String(character)
        }
    }

    /// How many times the atom repeats in the shortest match.
    private static func quantifier(_ characters: [Character], _ index: inout Int) -> Int {
        guard index < characters.count else { return 1 }
        switch characters[index] {
        case "?", "*": index += 1; return 0
        case "+": index += 1; return 1
        case "{":
            var digits = ""
            index += 1
            while index < characters.count, characters[index].isNumber { digits.append(characters[index]); index += 1 }
            while index < characters.count, characters[index] != "}" { index += 1 }
            index += 1
            return Int(digits) ?? 1
        default: return 1
        }
    }
}
