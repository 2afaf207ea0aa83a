/// Why the server cannot enforce its contracts' constraints; thrown at start, never per request.
package enum ContractConstraintError: Error, Equatable, CustomStringConvertible {
    /// A document that is not YAML.
    case unreadableDocument(document: String, reason: String)
    /// A `$ref` that names nothing in its document (only local `#/components/…` references are used).
    case unresolvedReference(document: String, reference: String)
    /// A `pattern` that `NSRegularExpression` cannot compile.
    case invalidPattern(document: String, pattern: String, reason: String)
    /// A bound (`maxLength`, `minimum`, …) that is not a number of the right kind.
    case invalidBound(document: String, keyword: String, value: String)
    /// An `x-kindred-code` that is neither `code` nor `NNN code` with a 4xx status.
    case invalidCode(document: String, value: String)
    /// An operation registered on the transport that no document describes.
    case undocumentedOperation(method: String, path: String)

    /// A one-line description.
    package var description: String {
        switch self {
        case .unreadableDocument(let document, let reason): "OpenAPI document \(document) cannot be read: \(reason)"
        case .unresolvedReference(let document, let reference): "OpenAPI document \(document): \(reference) names nothing"
        case .invalidPattern(let document, let pattern, let reason):
            "OpenAPI document \(document): the pattern \(pattern) does not compile (\(reason))"
        case .invalidBound(let document, let keyword, let value): "OpenAPI document \(document): \(keyword): \(value) is not a valid bound"
        case .invalidCode(let document, let value): "OpenAPI document \(document): x-kindred-code \(value) is not `code` or `4xx code`"
        case .undocumentedOperation(let method, let path): "\(method) \(path) is registered but no OpenAPI document describes it"
        }
    }
}
