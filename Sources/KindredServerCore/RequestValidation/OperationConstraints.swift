import HTTPTypes

/// The constraints of one operation of a contract: its parameters' and its JSON body's.
struct OperationConstraints: Sendable {
    /// Where a parameter is read from.
    enum Location: String, Sendable {
        case path, query, header
    }

    /// One constrained parameter.
    struct Parameter: Sendable {
        let name: String
        let location: Location
        /// The header's name (for header parameters).
        let field: HTTPField.Name?
        /// Its schema in `table`.
        let schema: Int
        /// Its declared type (`integer` and `number` text is read as a number, `array` as the
        /// list of repeated query values).
        let type: String?
        /// The element type of an array parameter.
        let itemType: String?
    }

    /// The document the operation is in (`core`, `closer`, …).
    let document: String
    /// `METHOD /path/{template}`.
    let operation: String
    let table: SchemaTable
    /// The parameters whose schemas constrain anything.
    let parameters: [Parameter]
    /// The JSON body's schema, when it constrains anything.
    let body: Int?
    /// The code of the operation's violations (`x-kindred-code` on the operation) where the
    /// schema names none; nil: `bad_request`.
    let code: String?
}

/// Every operation's constraints, compiled once at start from the documents the server serves.
package struct RequestConstraints: Sendable {
    /// The operations by `METHOD /path/{template}` (the path exactly as the document writes it).
    let operations: [String: OperationConstraints]

    /// No operations (for transports built without contracts, in tests).
    init() { operations = [:] }

    /// Compiles the constraints of every operation of `contracts`.
    /// - Throws: `ContractConstraintError` for a document that is not YAML, a reference that
    ///   names nothing, a bound that is not a number or a pattern that does not compile.
    package init(_ contracts: [APIContract]) throws(ContractConstraintError) {
        var operations: [String: OperationConstraints] = [:]
        for contract in contracts {
            let root = try ContractNode.parse(yaml: String(decoding: contract.document, as: UTF8.self), document: contract.name)
            var compiler = SchemaCompiler(document: contract.name, root: root)
            var found: [(key: String, parameters: [(ContractNode, Int)], body: Int?, code: String?)] = []
            for (path, item) in root["paths"]?.members ?? [] {
                let shared = item["parameters"]?.elements ?? []
                for (method, operation) in item.members where Self.methods.contains(method) {
                    // Operation-level parameters replace path-level ones of the same name and place.
                    var byKey: [String: ContractNode] = [:]
                    var order: [String] = []
                    for parameter in shared + (operation["parameters"]?.elements ?? []) {
                        let resolved = try Self.resolved(parameter, compiler)
                        let key = "\(resolved["in"]?.text ?? "") \(resolved["name"]?.text ?? "")"
                        if byKey.updateValue(resolved, forKey: key) == nil { order.append(key) }
                    }
                    var parameters: [(ContractNode, Int)] = []
                    for key in order {
                        let parameter = byKey[key]!
                        guard let schema = parameter["schema"] else { continue }
                        parameters.append((parameter, try compiler.compile(schema)))
                    }
                    var body: Int?
                    if let requestBody = operation["requestBody"] {
                        let resolved = try Self.resolved(requestBody, compiler)
                        if let schema = resolved["content"]?["application/json"]?["schema"] { body = try compiler.compile(schema) }
                    }
                    found.append(("\(method.uppercased()) \(path)", parameters, body, try compiler.code(operation)))
                }
            }
            let table = compiler.table()
            for operation in found {
                let parameters = operation.parameters.compactMap { node, schema -> OperationConstraints.Parameter? in
                    guard table.schemas[schema].isConstrained, let name = node["name"]?.text,
                        let location = node["in"]?.text.flatMap(OperationConstraints.Location.init(rawValue:))
                    else { return nil }
                    let type = table.declaredType(of: schema)
                    let items = type == "array" ? table.itemsSchema(of: schema).flatMap(table.declaredType(of:)) : nil
                    return .init(
                        name: name, location: location, field: location == .header ? HTTPField.Name(name) : nil, schema: schema,
                        type: type, itemType: items
                    )
                }
                operations[operation.key] = OperationConstraints(
                    document: contract.name, operation: operation.key, table: table, parameters: parameters,
                    body: operation.body.flatMap { table.schemas[$0].isConstrained ? $0 : nil }, code: operation.code
                )
            }
        }
        self.operations = operations
    }

    /// The constraints of `method path` (the path as the document writes it).
    func operation(_ method: HTTPRequest.Method, _ path: String) -> OperationConstraints? {
        operations["\(method.rawValue) \(path)"]
    }

    static let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

    /// A parameter or request body, through its `$ref` if it is one.
    private static func resolved(_ node: ContractNode, _ compiler: SchemaCompiler) throws(ContractConstraintError) -> ContractNode {
        guard let reference = node["$ref"]?.text else { return node }
        return try compiler.resolve(reference)
    }
}

extension SchemaTable {
    /// The `type` a schema declares, itself or through the schemas it must also satisfy.
    func declaredType(of id: Int) -> String? { throughAllOf(id) { $0.type } }

    /// The element schema of an array schema, itself or through `allOf`.
    func itemsSchema(of id: Int) -> Int? { throughAllOf(id) { $0.items } }

    /// The first value `pick` finds on schema `id` or on the schemas it must also satisfy
    /// through `allOf` (each visited once).
    private func throughAllOf<T>(_ id: Int, _ pick: (SchemaConstraints) -> T?) -> T? {
        var seen: Set<Int> = []
        var queue = [id]
        while let next = queue.popLast() {
            guard seen.insert(next).inserted else { continue }
            if let value = pick(schemas[next]) { return value }
            queue += schemas[next].allOf
        }
        return nil
    }
}
