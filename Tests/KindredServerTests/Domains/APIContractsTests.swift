@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import CloserAPI
import ExampleServer
import Foundation
import KindredAPI
import Testing


/// The server's OpenAPI documents: each keeps the layout the merge reads, the components every
/// document shares are identical copies, and the merge refuses what would make `/openapi.yaml` lie.
@Suite struct APIContractsTests {
    /// The components every document carries (the error envelope, the app and request-id headers,
    /// bearer security).
    static let shared: [String: Set<String>] = [
        "parameters": ["KindredApp", "RequestID"], "headers": ["RequestID"], "securitySchemes": ["bearer"],
        "responses": ["Error"], "schemas": ["AppID", "Error"],
    ]

    static func documents() throws -> [(name: String, text: String)] {
        let example = try #require(ExampleDomain().contract)
        return [
            ("core", String(decoding: try OpenAPIDocument.load(), as: UTF8.self)),
            ("closer", String(decoding: try CloserOpenAPIDocument.load(), as: UTF8.self)),
            ("example", String(decoding: example.document, as: UTF8.self)),
        ]
    }

    @Test("every document carries the shared components, each an identical copy")
    func sharedComponentsAreIdentical() throws {
        var first: [String: [String]] = [:]
        for document in try Self.documents() {
            let parts = try OpenAPIMerge.split(document.text, name: document.name)
            for (section, names) in Self.shared {
                let entries = try #require(parts.components.first { $0.section == section }, "\(document.name) has \(section)").entries
                for name in names {
                    let entry = try #require(entries.first { $0.key == name }, "\(document.name) has \(section).\(name)")
                    let key = "\(section).\(name)"
                    if let copy = first[key] {
                        #expect(copy == entry.lines, "\(document.name)'s \(key) differs from the core's")
                    } else {
                        first[key] = entry.lines
                    }
                }
            }
        }
        #expect(first.count == 7)
    }

    @Test("the merge holds every path once, every tag, and each shared component once")
    func mergeHoldsEveryDocument() throws {
        let documents = try Self.documents()
        let merged = try OpenAPIMerge.merge(documents)
        let parts = try OpenAPIMerge.split(merged, name: "merged")
        let paths = try documents.flatMap { try OpenAPIMerge.split($0.text, name: $0.name).paths.map(\.key) }
        #expect(parts.paths.map(\.key) == paths)
        #expect(Set(paths).count == paths.count)
        #expect(parts.tags.map { $0[0] }.contains("  - name: Closer"))
        #expect(parts.tags.map { $0[0] }.contains("  - name: Example"))
        let schemas = try #require(parts.components.first { $0.section == "schemas" }).entries.map(\.key)
        #expect(schemas.filter { $0 == "Error" }.count == 1)
        #expect(schemas.contains("CloserCouple") && schemas.contains("ExampleNote") && schemas.contains("User"))
        #expect(merged.hasPrefix("openapi: \"3.1.0\"\ninfo:\n  title: Kindred\n"))
    }

    @Test("a changed copy of a shared component, a path or tag in two documents, an empty or badly named document are refused")
    func mergeRefusesWhatWouldLie() throws {
        let documents = try Self.documents()
        var changed = documents
        changed[1].text = changed[1].text.replacingOccurrences(
            of: "The caller's request id (1–128 visible ASCII characters).", with: "A request id."
        )
        #expect(changed[1].text != documents[1].text)
        #expect(throws: APIContractError.conflictingComponent(section: "parameters", name: "RequestID")) {
            try OpenAPIMerge.merge(changed)
        }
        #expect(throws: APIContractError.duplicatePath("/v1/example/notes")) {
            try OpenAPIMerge.merge(documents + [("again", documents[2].text.replacingOccurrences(of: "name: Example", with: "name: Again"))])
        }
        #expect(throws: APIContractError.duplicateTag("Example")) {
            try OpenAPIMerge.merge(documents + [("again", documents[2].text.replacingOccurrences(of: "/v1/example/notes", with: "/v1/again"))])
        }
        #expect(throws: APIContractError.emptyDocument("closer")) {
            try APIContracts([APIContract(name: "core", document: Array(documents[0].text.utf8)), APIContract(name: "closer", document: [])])
        }
        #expect(throws: APIContractError.invalidName("Closer")) {
            try APIContracts([APIContract(name: "Closer", document: Array(documents[1].text.utf8))])
        }
        #expect(throws: APIContractError.duplicateName("core")) {
            try APIContracts([
                APIContract(name: "core", document: Array(documents[0].text.utf8)),
                APIContract(name: "core", document: Array(documents[0].text.utf8)),
            ])
        }
    }
}
