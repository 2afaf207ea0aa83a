/// The constraints of one JSON schema of a contract, compiled: the keywords the generated code
/// does not check (it checks types, `required`, `enum` and `additionalProperties: false` while
/// decoding). Each keyword applies to values of its own kind only, as in JSON Schema.
struct SchemaConstraints: Sendable {
    /// The declared `type` (the first one besides `"null"`); parameters read their text by it.
    var type: String?
    /// Bounds on a string's length in characters (Unicode code points, as JSON Schema counts).
    var minLength: Int?
    var maxLength: Int?
    var pattern: ContractPattern?
    var minimum: Double?
    var maximum: Double?
    var exclusiveMinimum: Double?
    var exclusiveMaximum: Double?
    var minItems: Int?
    var maxItems: Int?
    var uniqueItems = false
    /// The schema of each named property, by index in the table.
    var properties: [String: Int] = [:]
    /// The schema of the other properties (a map's values), by index.
    var additionalProperties: Int?
    /// The schema of an array's elements, by index.
    var items: Int?
    /// Schemas the value must also satisfy (`allOf`, and a `$ref` with sibling keywords).
    var allOf: [Int] = []
    /// The error code a violation inside this schema answers with (`x-kindred-code`), instead
    /// of `bad_request`; for fields whose contract names their own code (`weak_password`, …).
    var code: String?
    /// Whether this schema or any schema below it constrains anything (computed once compiled:
    /// unconstrained subtrees are not walked).
    var isConstrained = false

    /// Whether the keywords of this schema alone constrain anything.
    var hasOwnKeywords: Bool {
        minLength != nil || maxLength != nil || pattern != nil || minimum != nil || maximum != nil
            || exclusiveMinimum != nil || exclusiveMaximum != nil || minItems != nil || maxItems != nil || uniqueItems
    }

    /// The schemas directly below this one.
    var children: [Int] {
        Array(properties.values) + [additionalProperties, items].compactMap { $0 } + allOf
    }
}

/// One step of the way from a request part to a value: a property name or an array index.
enum ValuePathStep {
    case key(String)
    case index(Int)
}

/// A value that breaks its contract: where (`body.sessionId`, `query.limit`), which rule, and
/// the code to answer with.
struct ConstraintViolation: Error, Equatable {
    /// Where the value is, as `body.a.b[2]`, `query.limit`, `path.code` or `header.X-Name`.
    let location: String
    /// The rule it breaks (`is longer than 253 characters`).
    let rule: String
    /// The contract's code for it (`x-kindred-code`); nil: `bad_request`.
    let code: String?

    /// The refusal the caller gets, in the error envelope: 400 `bad_request`, or the contract's
    /// code (`weak_password`, or with its status, `422 invalid_envelope`).
    var error: KindredError {
        let message = "invalid request: \(location) \(rule)"
        guard let code, let (status, name) = Self.parse(code: code) else { return .badRequest(message) }
        return .refused(status: status, code: name, message: message)
    }

    /// An `x-kindred-code` value as (status, code): `code` (400) or `NNN code` with a 4xx status
    /// and a snake_case code; nil for anything else (refused at start).
    static func parse(code text: String) -> (Int, String)? {
        let parts = text.split(separator: " ")
        let status = parts.count == 2 ? Int(parts[0]) : 400
        guard let status, (400..<500).contains(status), let name = parts.last, !name.isEmpty,
            name.utf8.allSatisfy({ ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || $0 == UInt8(ascii: "_") })
        else { return nil }
        return (status, String(name))
    }

    /// `part` followed by the steps (keys longer than 40 characters are cut).
    static func location(_ part: String, _ steps: [ValuePathStep]) -> String {
        var text = part
        for step in steps {
            switch step {
            case .key(let key): text += "." + (key.count > 40 ? String(key.prefix(40)) + "…" : key)
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}

/// The compiled schemas of one document, which refer to one another by index.
final class SchemaTable: Sendable {
    let schemas: [SchemaConstraints]

    init(_ schemas: [SchemaConstraints]) { self.schemas = schemas }

    /// The first violation of schema `id` in `value`, or nil.
    /// - Parameters:
    ///   - part: the request part the value came from (`body`, `query.limit`), for the location.
    ///   - steps: the way from the part to `value` (grows and shrinks during the walk).
    ///   - code: the code inherited from the enclosing schemas.
    func violation(of id: Int, in value: JSONValue, part: String, steps: inout [ValuePathStep], code: String?) -> ConstraintViolation? {
        let schema = schemas[id]
        guard schema.isConstrained else { return nil }
        let code = schema.code ?? code
        func violated(_ rule: String) -> ConstraintViolation {
            ConstraintViolation(location: ConstraintViolation.location(part, steps), rule: rule, code: code)
        }
        switch value {
        case .string(let string):
            if schema.minLength != nil || schema.maxLength != nil {
                let length = string.unicodeScalars.count
                if let minimum = schema.minLength, length < minimum {
                    return violated("is shorter than \(minimum) character\(minimum == 1 ? "" : "s")")
                }
                if let maximum = schema.maxLength, length > maximum { return violated("is longer than \(maximum) characters") }
            }
            if let pattern = schema.pattern, !pattern.matches(string) {
                return violated("does not match the pattern \(pattern.source)")
            }
        case .number(let number):
            if let minimum = schema.minimum, !(number >= minimum) { return violated("is less than \(Self.format(minimum))") }
            if let maximum = schema.maximum, !(number <= maximum) { return violated("is greater than \(Self.format(maximum))") }
            if let bound = schema.exclusiveMinimum, !(number > bound) { return violated("is not greater than \(Self.format(bound))") }
            if let bound = schema.exclusiveMaximum, !(number < bound) { return violated("is not less than \(Self.format(bound))") }
        case .array(let elements):
            if let minimum = schema.minItems, elements.count < minimum {
                return violated("has fewer than \(minimum) item\(minimum == 1 ? "" : "s")")
            }
            if let maximum = schema.maxItems, elements.count > maximum { return violated("has more than \(maximum) items") }
            if schema.uniqueItems {
                var seen: Set<JSONValue> = []
                for element in elements where !seen.insert(element).inserted { return violated("has a repeated item") }
            }
            if let items = schema.items, schemas[items].isConstrained {
                for (offset, element) in elements.enumerated() {
                    steps.append(.index(offset))
                    defer { steps.removeLast() }
                    if let found = violation(of: items, in: element, part: part, steps: &steps, code: code) { return found }
                }
            }
        case .object(let members):
            for member in members {
                guard let child = schema.properties[member.key] ?? schema.additionalProperties, schemas[child].isConstrained else {
                    continue
                }
                steps.append(.key(member.key))
                defer { steps.removeLast() }
                if let found = violation(of: child, in: member.value, part: part, steps: &steps, code: code) { return found }
            }
        case .null, .bool:
            break
        }
        for other in schema.allOf {
            if let found = violation(of: other, in: value, part: part, steps: &steps, code: code) { return found }
        }
        return nil
    }

    private static func format(_ bound: Double) -> String {
        bound == bound.rounded() && abs(bound) < 1e15 ? String(Int64(bound)) : String(bound)
    }
}
