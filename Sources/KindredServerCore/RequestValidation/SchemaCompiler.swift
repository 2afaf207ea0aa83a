/// Compiles the schemas of one document into a `SchemaTable`, following `$ref`s to
/// `#/components/…` (each named schema compiled once, recursion allowed).
struct SchemaCompiler {
    let document: String
    let root: ContractNode
    private(set) var schemas: [SchemaConstraints] = []
    private var byReference: [String: Int] = [:]

    init(document: String, root: ContractNode) {
        self.document = document
        self.root = root
    }

    /// The node a local reference (`#/components/schemas/Name`) names.
    /// - Throws: `unresolvedReference`.
    func resolve(_ reference: String) throws(ContractConstraintError) -> ContractNode {
        guard reference.hasPrefix("#/") else { throw .unresolvedReference(document: document, reference: reference) }
        var node = root
        for raw in reference.dropFirst(2).split(separator: "/") {
            // JSON Pointer escapes (RFC 6901).
            let key = raw.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            guard let next = node[key] else { throw .unresolvedReference(document: document, reference: reference) }
            node = next
        }
        return node
    }

    /// Compiles a schema node, returning its index.
    /// - Throws: `ContractConstraintError`.
    mutating func compile(_ node: ContractNode) throws(ContractConstraintError) -> Int {
        if let reference = node["$ref"]?.text {
            let target = try compile(reference: reference)
            // OpenAPI 3.1: keywords beside `$ref` apply too.
            let siblings = node.members.filter { $0.key != "$ref" }
            guard siblings.contains(where: { Self.constraintKeywords.contains($0.key) }) else { return target }
            let own = try compile(.mapping(siblings))
            schemas[own].allOf.append(target)
            return own
        }
        let id = schemas.count
        schemas.append(SchemaConstraints())
        var schema = SchemaConstraints()
        if let type = node["type"] {
            schema.type = type.text ?? type.elements.compactMap(\.text).first { $0 != "null" }
        }
        schema.minLength = try count(node, "minLength")
        schema.maxLength = try count(node, "maxLength")
        schema.minItems = try count(node, "minItems")
        schema.maxItems = try count(node, "maxItems")
        schema.uniqueItems = node["uniqueItems"]?.text == "true"
        schema.minimum = try number(node, "minimum")
        schema.maximum = try number(node, "maximum")
        // OpenAPI 3.1 bounds are numbers; 3.0's booleans turn `minimum`/`maximum` exclusive.
        if node["exclusiveMinimum"]?.text == "true" {
            schema.exclusiveMinimum = schema.minimum
            schema.minimum = nil
        } else if node["exclusiveMinimum"]?.text != "false" {
            schema.exclusiveMinimum = try number(node, "exclusiveMinimum")
        }
        if node["exclusiveMaximum"]?.text == "true" {
            schema.exclusiveMaximum = schema.maximum
            schema.maximum = nil
        } else if node["exclusiveMaximum"]?.text != "false" {
            schema.exclusiveMaximum = try number(node, "exclusiveMaximum")
        }
        if let pattern = node["pattern"]?.text { schema.pattern = try ContractPattern(pattern, document: document) }
        schema.code = try code(node)
        for (name, property) in node["properties"]?.members ?? [] {
            schema.properties[name] = try compile(property)
        }
        if let additional = node["additionalProperties"], case .mapping = additional {
            schema.additionalProperties = try compile(additional)
        }
        if let items = node["items"] { schema.items = try compile(items) }
        for part in node["allOf"]?.elements ?? [] { schema.allOf.append(try compile(part)) }
        schemas[id] = schema
        return id
    }

    /// Compiles the schema a reference names (once per reference).
    private mutating func compile(reference: String) throws(ContractConstraintError) -> Int {
        if let id = byReference[reference] { return id }
        let node = try resolve(reference)
        // Reserve the index first, so a schema that refers to itself finds it.
        let placeholder = schemas.count
        schemas.append(SchemaConstraints())
        byReference[reference] = placeholder
        let id = try compile(node)
        schemas[placeholder].allOf = [id]
        return placeholder
    }

    /// The table, with `isConstrained` worked out for every schema (to a fixed point, for cycles).
    func table() -> SchemaTable {
        var schemas = schemas
        for index in schemas.indices { schemas[index].isConstrained = schemas[index].hasOwnKeywords }
        var changed = true
        while changed {
            changed = false
            for index in schemas.indices where !schemas[index].isConstrained {
                if schemas[index].children.contains(where: { schemas[$0].isConstrained }) {
                    schemas[index].isConstrained = true
                    changed = true
                }
            }
        }
        return SchemaTable(schemas)
    }

    /// The keywords that make a schema beside a `$ref` worth compiling.
    static let constraintKeywords: Set<String> = [
        "minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
        "minItems", "maxItems", "uniqueItems", "properties", "additionalProperties", "items", "allOf", "x-kindred-code",
    ]

    /// A node's `x-kindred-code`, checked (`code` or `NNN code`, a 4xx status).
    /// - Throws: `invalidCode` for a value of another form.
    func code(_ node: ContractNode) throws(ContractConstraintError) -> String? {
        guard let text = node["x-kindred-code"]?.text else { return nil }
        guard ConstraintViolation.parse(code: text) != nil else {
            throw .invalidCode(document: document, value: text)
        }
        return text
    }

    private func count(_ node: ContractNode, _ keyword: String) throws(ContractConstraintError) -> Int? {
        guard let text = node[keyword]?.text else { return nil }
        guard let value = Int(text), value >= 0 else { throw .invalidBound(document: document, keyword: keyword, value: text) }
        return value
    }

    private func number(_ node: ContractNode, _ keyword: String) throws(ContractConstraintError) -> Double? {
        guard let text = node[keyword]?.text else { return nil }
        guard let value = Double(text), value.isFinite else { throw .invalidBound(document: document, keyword: keyword, value: text) }
        return value
    }
}
