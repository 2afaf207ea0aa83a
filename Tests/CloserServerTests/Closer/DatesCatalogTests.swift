@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import Testing

/// The bundled date ideas and operator imports (`kindred closer dates import`).
@Suite struct DatesCatalogTests {
    @Test func theBundledIdeasCoverEveryCategory() throws {
        let catalog = try DateIdeasCatalog(try DateIdeasCatalog.bundledDocument())
        #expect(catalog.ideas.count == 126)
        for category in DateIdeasDocument.categories {
            #expect(catalog.ideas.filter { $0.category == category }.count == 21, "\(category)")
        }
        #expect(Set(catalog.ideas.map(\.costLevel)) == [0, 1, 2, 3])
        #expect(catalog.ideasByID["adventure-005"]?.title == "Hot-air balloon ride")
    }

    @Test func documentsBreakingARuleAreRefused() throws {
        let base = try DateIdeasCatalog.bundledDocument()
        let cases: [(edit: (inout DateIdeasDocument) -> Void, error: DateIdeasError)] = [
            ({ $0.ideas[1].id = $0.ideas[0].id }, .invalid("idea home-001 appears twice")),
            ({ $0.ideas[1].title = " " + $0.ideas[0].title.uppercased() }, .invalid("idea home-002 repeats another idea's title")),
            ({ $0.ideas[0].category = "space" }, .invalid("idea home-001: unknown category \"space\" (one of at_home, outdoors, food, culture, adventure, budget)")),
            ({ $0.ideas[0].costLevel = 4 }, .invalid("idea home-001: costLevel must be 0–3")),
            ({ $0.ideas[0].title = String(repeating: "t", count: 101) }, .invalid("idea home-001: title must be 1–100 characters")),
            ({ $0.ideas[0].description = "" }, .invalid("idea home-001: description must be 1–500 characters")),
            ({ $0.ideas[0].imageUrl = "http://example.com/a.jpg" }, .invalid("idea home-001: imageUrl must be an https URL of at most 500 characters")),
            ({ $0.ideas[0].id = "Home_1" }, .invalid("idea id \"Home_1\" is not of a-z, 0-9 and -")),
        ]
        for (edit, error) in cases {
            var document = base
            edit(&document)
            #expect(throws: error) { try document.validate() }
        }
        #expect(throws: DateIdeasError.malformed("missing \"ideas\" at the top level")) {
            try DateIdeasDocument(json: Data(#"{"format":"kindred-closer-date-ideas","version":1}"#.utf8))
        }
    }

    @Test(arguments: Backend.all)
    func importAddsAndReplacesIdeas(backend: Backend) async throws {
        try await withMigratedDatabase(backend) { (database: Database) async throws -> Void in
            let file = DateIdeasDocument(ideas: [
                .init(id: "winter-001", title: "Build an igloo", description: "Pack snow into blocks and build a shelter for two.", category: "outdoors", costLevel: 0,
                      imageUrl: "https://images.example.com/igloo.jpg"),
                .init(id: "home-001", title: "Pillow fort premiere", description: "The fort, with a premiere of a film neither of you has seen.", category: "at_home", costLevel: 1),
            ])
            let summary = try await DateIdeasImport.run(try JSONEncoder().encode(file), database: database, clock: TestClock())
            #expect(summary.ideaIDs == ["winter-001", "home-001"])
            #expect(summary.catalogIdeaCount == 127)
            let catalog = try await DateIdeasCatalog.load(from: database)
            #expect(catalog.ideas.last?.id == "winter-001")
            #expect(catalog.ideasByID["home-001"]?.title == "Pillow fort premiere")
            #expect(catalog.ideas.first?.id == "home-001")
            // A title clash with a bundled idea is refused and nothing is stored.
            var clash = file
            clash.ideas[0].title = "Kite flying"
            await #expect(throws: DateIdeasError.self) {
                _ = try await DateIdeasImport.run(try JSONEncoder().encode(clash), database: database, clock: TestClock())
            }
            #expect(try await DateIdeasCatalog.load(from: database).ideasByID["winter-001"]?.title == "Build an igloo")
        }
    }
}
