import Yams

/// A node of a contract's YAML, reduced to what the constraint compiler reads: scalars as their
/// text (the compiler converts bounds to numbers itself), sequences and mappings in order.
package indirect enum ContractNode: Sendable {
    case scalar(String)
    case sequence([ContractNode])
    case mapping([(key: String, value: ContractNode)])

    /// Parses a contract with Yams (libyaml), the YAML reader swift-configuration already builds.
    /// Keys must be scalars (the contracts' are); duplicate keys are an error, as YAML says.
    /// - Throws: `ContractConstraintError.unreadableDocument`.
    package static func parse(yaml: String, document: String) throws(ContractConstraintError) -> ContractNode {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch {
            throw .unreadableDocument(document: document, reason: "\(error)")
        }
        guard let root else { throw .unreadableDocument(document: document, reason: "the document is empty") }
        return try node(root, document: document)
    }

    private static func node(_ yaml: Node, document: String) throws(ContractConstraintError) -> ContractNode {
        switch yaml {
        case .scalar(let scalar):
            return .scalar(scalar.string)
        case .sequence(let sequence):
            var elements: [ContractNode] = []
            for element in sequence { elements.append(try node(element, document: document)) }
            return .sequence(elements)
        case .mapping(let mapping):
            var members: [(key: String, value: ContractNode)] = []
            var seen: Set<String> = []
            for (key, value) in mapping {
                guard case .scalar(let name) = key else {
                    throw .unreadableDocument(document: document, reason: "a mapping key is not a scalar")
                }
                guard seen.insert(name.string).inserted else {
                    throw .unreadableDocument(document: document, reason: "the key \(name.string) appears twice in one mapping")
                }
                members.append((name.string, try node(value, document: document)))
            }
            return .mapping(members)
        case .alias:
            throw .unreadableDocument(document: document, reason: "an unresolved alias")
        }
    }

    /// The value of `key` in a mapping.
    package subscript(key: String) -> ContractNode? {
        guard case .mapping(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// A scalar's text.
    package var text: String? {
        guard case .scalar(let text) = self else { return nil }
        return text
    }

    /// A mapping's members (empty for anything else).
    package var members: [(key: String, value: ContractNode)] {
        guard case .mapping(let members) = self else { return [] }
        return members
    }

    /// A sequence's elements (empty for anything else).
    package var elements: [ContractNode] {
        guard case .sequence(let elements) = self else { return [] }
        return elements
    }
}
