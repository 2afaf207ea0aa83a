@testable import KindredServerCore
import Testing

/// The contracts' YAML as the constraint compiler reads it (Yams): what the documents use, read
/// as YAML reads it; duplicate keys, non-scalar keys and broken documents refused.
@Suite struct ContractYAMLTests {
    private func parse(_ text: String) throws -> ContractNode {
        try ContractNode.parse(yaml: text, document: "test")
    }

    @Test func readsBlockMappingsSequencesAndScalars() throws {
        let node = try parse(
            """
            # a comment
            openapi: "3.1.0"
            info: {title: Test, version: "1"}
            tags:
              - name: One   # trailing comment
                description: first
              - name: 'It''s two'
            required: [a, "b, c", d]
            list:
            - x
            -
              nested: yes
            pattern: "^\\\\{[ -~]*\\\\}$"
            plain: a value
              that continues
            url: http://127.0.0.1:8080
            empty:
            "200":
              ok: 1
            """
        )
        #expect(node["openapi"]?.text == "3.1.0")
        #expect(node["info"]?["version"]?.text == "1")
        #expect(node["tags"]?.elements.count == 2)
        #expect(node["tags"]?.elements[0]["name"]?.text == "One")
        #expect(node["tags"]?.elements[0]["description"]?.text == "first")
        #expect(node["tags"]?.elements[1]["name"]?.text == "It's two")
        #expect(node["required"]?.elements.compactMap(\.text) == ["a", "b, c", "d"])
        #expect(node["list"]?.elements[0].text == "x")
        #expect(node["list"]?.elements[1]["nested"]?.text == "yes")
        #expect(node["pattern"]?.text == #"^\{[ -~]*\}$"#)
        #expect(node["plain"]?.text == "a value that continues")
        #expect(node["url"]?.text == "http://127.0.0.1:8080")
        #expect(node["empty"]?.text == "")
        #expect(node["200"]?["ok"]?.text == "1")
    }

    @Test func readsBlockScalars() throws {
        let node = try parse(
            """
            literal: |
              line one
                indented: not a key
              # not a comment

              last
            folded: >
              one
              two
            stripped: |-
              kept
            next: after
            """
        )
        #expect(node["literal"]?.text == "line one\n  indented: not a key\n# not a comment\n\nlast\n")
        #expect(node["folded"]?.text == "one two\n")
        #expect(node["stripped"]?.text == "kept")
        #expect(node["next"]?.text == "after")
    }

    @Test(arguments: ["a: 1\na: 2", "a: [1, 2", "a: \"open", "a: 1\n  b: 2", "a: b: c", "? [x]\n: 1", ""])
    func refusesWhatIsNotAUsableDocument(text: String) {
        #expect(throws: ContractConstraintError.self) { try parse(text) }
    }
}
