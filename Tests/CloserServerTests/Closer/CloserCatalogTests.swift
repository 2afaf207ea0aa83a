@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import Testing

/// The bundled catalog and operator imports.
@Suite struct CloserCatalogTests {
    @Test func bundledCatalogHasEnoughOriginalQuestionsInFreeAndPremiumPacks() throws {
        let document = try CloserCatalog.bundledDocument()
        let catalog = try CloserCatalog(document)
        #expect(catalog.questionsByID.count == 316)
        #expect(catalog.packs.count == 10)
        #expect(catalog.packs.filter(\.isPremium).map(\.id) == ["deeper", "affection", "roots", "repair", "adventure"])
        #expect(catalog.packs.filter { !$0.isPremium }.map(\.id) == ["everyday", "memories", "dreams", "fun", "values"])
        #expect(catalog.packs.allSatisfy { $0.activeQuestions.count >= 30 })
        #expect(document.categories.count == 11)
        let texts = catalog.questionsByID.values.map { CloserCatalogDocument.normalized($0.text) }
        #expect(Set(texts).count == texts.count)
        #expect(catalog.defaultPackID == "everyday")
    }

    @Test func documentsWithDuplicatesOrBadReferencesAreRefused() throws {
        var document = try CloserCatalog.bundledDocument()
        document.packs[1].questions[0].text = "  " + document.packs[0].questions[0].text.uppercased()
        #expect(throws: CloserCatalogError.invalid("question memories-001 repeats another question's text")) { try document.validate() }
        document = try CloserCatalog.bundledDocument()
        document.packs[0].questions[0].categoryId = "nope"
        #expect(throws: CloserCatalogError.invalid("question everyday-001: unknown category \"nope\"")) { try document.validate() }
        #expect(throws: CloserCatalogError.malformed("missing \"format\" at the top level")) {
            try CloserCatalogDocument(json: Data(#"{"version":1}"#.utf8))
        }
    }

    @Test(arguments: Backend.all)
    func importAddsAndReplacesPacks(backend: Backend) async throws {
        try await withMigratedDatabase(backend) { (database: Database) async throws -> Void in
            let file = CloserCatalogDocument(
                categories: [.init(id: "seasons", name: "Seasons")],
                packs: [
                    .init(id: "winter", title: "Winter", description: "Cold nights.", isPremium: false, questions: [
                        .init(id: "winter-001", categoryId: "seasons", text: "What is your favourite winter smell?", active: nil),
                        .init(id: "winter-002", categoryId: "seasons", text: "Which winter tradition should we start?", active: false),
                    ]),
                ]
            )
            let summary = try await CloserCatalogImport.run(try JSONEncoder().encode(file), database: database, clock: TestClock())
            #expect(summary.packIDs == ["winter"])
            #expect(summary.catalogQuestionCount == 318)
            let catalog = try await CloserCatalog.load(from: database)
            #expect(catalog.packsByID["winter"]?.activeQuestions.map(\.id) == ["winter-001"])
            // A clash with a bundled question is refused and nothing is stored.
            var clash = file
            clash.packs[0].questions[0].text = "What was the best five minutes of your day today?"
            await #expect(throws: CloserCatalogError.self) {
                _ = try await CloserCatalogImport.run(try JSONEncoder().encode(clash), database: database, clock: TestClock())
            }
            #expect(try await CloserCatalog.load(from: database).questionsByID["winter-001"]?.text == "What is your favourite winter smell?")
        }
    }
}
