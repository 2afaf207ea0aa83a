import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// The date ideas the server serves read-only: the bundled ideas merged with those operators
/// imported (an imported idea replaces the bundled idea with the same id; new ids are appended).
/// Loaded at start; an import takes effect when the server next starts.
public struct DateIdeasCatalog: Sendable {
    /// The ideas in catalog order.
    public let ideas: [DateIdeasDocument.Idea]
    /// Ideas by id.
    public let ideasByID: [String: DateIdeasDocument.Idea]
    /// Each idea's position in `ideas` (the deck's tie-breaker).
    let positions: [String: Int]

    /// Builds the runtime catalog from a validated document.
    /// - Throws: `DateIdeasError` when the document breaks a rule.
    public init(_ document: DateIdeasDocument) throws(DateIdeasError) {
        try document.validate()
        ideas = document.ideas.map {
            DateIdeasDocument.Idea(
                id: $0.id, title: $0.title.trimmingCharacters(in: .whitespacesAndNewlines),
                description: $0.description.trimmingCharacters(in: .whitespacesAndNewlines), category: $0.category,
                costLevel: $0.costLevel, imageUrl: $0.imageUrl
            )
        }
        ideasByID = Dictionary(uniqueKeysWithValues: ideas.map { ($0.id, $0) })
        positions = Dictionary(uniqueKeysWithValues: ideas.enumerated().map { ($1.id, $0) })
    }

    /// The ideas bundled with the server (`closer-date-ideas.json`).
    /// - Throws: `DateIdeasError` when the resource is missing or invalid.
    public static func bundledDocument() throws(DateIdeasError) -> DateIdeasDocument {
        guard let url = Bundle.module.url(forResource: "closer-date-ideas", withExtension: "json"),
            let data = try? Data(contentsOf: url)
        else { throw .resourceMissing }
        return try DateIdeasDocument(json: data)
    }

    /// The bundled ideas merged with the imported ones stored in `database`.
    /// - Throws: `DateIdeasError` or a database error.
    public static func load(from database: Database) async throws -> DateIdeasCatalog {
        try await load(on: database.sql)
    }

    /// The bundled ideas merged with the imported ones readable on `sql`.
    static func load(on sql: any SQLDatabase) async throws -> DateIdeasCatalog {
        let rows = try await sql.select().columns("id", "title", "description", "category", "cost_level", "image_url")
            .from("closer_date_idea_imports").orderBy("imported_at").orderBy("id").all()
        let imported = try rows.map {
            DateIdeasDocument.Idea(
                id: try $0.decode(column: "id", as: String.self), title: try $0.decode(column: "title", as: String.self),
                description: try $0.decode(column: "description", as: String.self), category: try $0.decode(column: "category", as: String.self),
                costLevel: try $0.decode(column: "cost_level", as: Int.self), imageUrl: try $0.decode(column: "image_url", as: String?.self)
            )
        }
        return try DateIdeasCatalog(merging(imported, into: try bundledDocument()))
    }

    /// `base` with each of `imported` replacing the idea of the same id, or appended.
    static func merging(_ imported: [DateIdeasDocument.Idea], into base: DateIdeasDocument) -> DateIdeasDocument {
        var merged = base
        for idea in imported {
            if let index = merged.ideas.firstIndex(where: { $0.id == idea.id }) {
                merged.ideas[index] = idea
            } else {
                merged.ideas.append(idea)
            }
        }
        return merged
    }
}

/// `kindred closer dates import FILE`: validates a date-idea document on its own and merged with
/// the ideas in use, then stores each idea (replacing an earlier import of the same id).
/// Servers serve them after their next start.
public enum DateIdeasImport {
    /// What an import stored.
    public struct Summary: Sendable, Equatable, CustomStringConvertible {
        /// The ids stored, in file order.
        public var ideaIDs: [String]
        /// The number of ideas in the merged catalog.
        public var catalogIdeaCount: Int

        /// One line for the operator.
        public var description: String {
            "imported \(ideaIDs.count) date idea(s); the catalog now has \(catalogIdeaCount) ideas (restart servers to serve them)"
        }
    }

    /// Imports `json` into `database`.
    /// - Throws: `DateIdeasError` (nothing is stored then) or a database error.
    public static func run(_ json: Data, database: Database, clock: any WallClock) async throws -> Summary {
        let document = try DateIdeasDocument(json: json)
        let current = try await DateIdeasCatalog.load(from: database)
        let merged = try DateIdeasCatalog(DateIdeasCatalog.merging(document.ideas, into: DateIdeasDocument(ideas: current.ideas)))
        let now = clock.now().millisecondsSince1970
        try await database.transaction { sql in
            for idea in document.ideas {
                try await sql.delete(from: "closer_date_idea_imports").where("id", .equal, idea.id).run()
                try await sql.insert(into: "closer_date_idea_imports")
                    .columns("id", "title", "description", "category", "cost_level", "image_url", "imported_at")
                    .values(
                        SQLBind(idea.id), SQLBind(idea.title), SQLBind(idea.description), SQLBind(idea.category),
                        SQLBind(idea.costLevel), SQLBind(idea.imageUrl), SQLBind(now)
                    ).run()
            }
        }
        return Summary(ideaIDs: document.ideas.map(\.id), catalogIdeaCount: merged.ideas.count)
    }
}
