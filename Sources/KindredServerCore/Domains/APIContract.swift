/// One OpenAPI document of the server: the core's (`core`) or a domain's (`closer`, …), served
/// as-is at `/openapi/<name>.yaml`, the bytes its module's code was generated from.
package struct APIContract: Sendable {
    /// The core document's name.
    package static let coreName = "core"

    /// The document's name: lower-case letters, digits and `-`.
    package let name: String
    /// The YAML document's bytes.
    package let document: [UInt8]

    /// Creates a contract.
    package init(name: String, document: [UInt8]) {
        self.name = name
        self.document = document
    }
}

/// A document that cannot be served or merged.
package enum APIContractError: Error, Equatable, CustomStringConvertible {
    /// Two documents share a name.
    case duplicateName(String)
    /// A name that is not lower-case letters, digits and `-` (at most 32 characters).
    case invalidName(String)
    /// A document with no bytes (its module's bundle lost it).
    case emptyDocument(String)
    /// Two documents describe the same path.
    case duplicatePath(String)
    /// Two documents declare a tag of the same name.
    case duplicateTag(String)
    /// Two documents hold a component of one name with different text (shared components must be
    /// identical copies).
    case conflictingComponent(section: String, name: String)
    /// A document whose top level is not the layout every Kindred document keeps.
    case unexpectedLayout(document: String, line: String)

    /// A one-line description.
    package var description: String {
        switch self {
        case .duplicateName(let name): "two OpenAPI documents are named \(name)"
        case .invalidName(let name): "\(name) is not a valid OpenAPI document name"
        case .emptyDocument(let name): "OpenAPI document \(name) is empty (missing from its module's bundle?)"
        case .duplicatePath(let path): "two OpenAPI documents describe \(path)"
        case .duplicateTag(let tag): "two OpenAPI documents declare the tag \(tag)"
        case .conflictingComponent(let section, let name):
            "components.\(section).\(name) differs between OpenAPI documents (shared components must be identical)"
        case .unexpectedLayout(let document, let line): "OpenAPI document \(document): unexpected line \"\(line.prefix(60))\""
        }
    }
}

/// The server's documents by name, and their merge (`/openapi.yaml`) made once at start.
struct APIContracts: Sendable {
    let byName: [String: [UInt8]]
    let merged: [UInt8]

    /// Checks the names and merges the documents, core first.
    /// - Throws: `APIContractError`.
    init(_ contracts: [APIContract]) throws(APIContractError) {
        var byName: [String: [UInt8]] = [:]
        for contract in contracts {
            guard Self.isValidName(contract.name) else { throw .invalidName(contract.name) }
            guard !contract.document.isEmpty else { throw .emptyDocument(contract.name) }
            guard byName.updateValue(contract.document, forKey: contract.name) == nil else {
                throw .duplicateName(contract.name)
            }
        }
        self.byName = byName
        merged = Array(try OpenAPIMerge.merge(contracts.map { ($0.name, String(decoding: $0.document, as: UTF8.self)) }).utf8)
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 32 && name.utf8.first.map { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) } == true
            && name.utf8.allSatisfy { ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-") }
    }
}
