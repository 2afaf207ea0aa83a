import KindredServerCore
import Foundation
import KindredStore
import SQLKit

/// `kindred closer questions import FILE`: validates a catalog document on its own and merged
/// with the catalog in use, then stores each of its packs (replacing an earlier import of the
/// same pack id). Servers pick the packs up when they next start.
public enum CloserCatalogImport {
    /// What an import stored.
    public struct Summary: Sendable, Equatable, CustomStringConvertible {
        /// The ids of the packs stored, in file order.
        public var packIDs: [String]
        /// The number of questions in them.
        public var questionCount: Int
        /// The number of questions in the merged catalog.
        public var catalogQuestionCount: Int

        /// One line for the operator.
        public var description: String {
            "imported \(packIDs.count) pack(s) with \(questionCount) question(s): \(packIDs.joined(separator: ", ")); "
                + "the catalog now has \(catalogQuestionCount) questions (restart servers to serve them)"
        }
    }

    /// Imports `json` into `database`.
    /// - Throws: `CloserCatalogError` (nothing is stored then) or a database error.
    public static func run(_ json: Data, database: Database, clock: any WallClock) async throws -> Summary {
        let document = try CloserCatalogDocument(json: json)
        let current = try await CloserCatalog.load(from: database)
        let merged = try CloserCatalog(CloserCatalog.merging(document, into: current.document))
        let now = clock.now().millisecondsSince1970
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var rows: [(String, String)] = []
        for pack in document.packs {
            let used = Set(pack.questions.map(\.categoryId))
            let single = CloserCatalogDocument(categories: document.categories.filter { used.contains($0.id) }, packs: [pack])
            rows.append((pack.id, String(decoding: try encoder.encode(single), as: UTF8.self)))
        }
        let stored = rows
        try await database.transaction { sql in
            for (id, json) in stored {
                try await sql.delete(from: "closer_catalog_packs").where("id", .equal, id).run()
                try await sql.insert(into: "closer_catalog_packs").columns("id", "document", "imported_at")
                    .values(SQLBind(id), SQLBind(json), SQLBind(now)).run()
            }
        }
        return Summary(
            packIDs: document.packs.map(\.id), questionCount: document.packs.reduce(0) { $0 + $1.questions.count },
            catalogQuestionCount: merged.questionsByID.count
        )
    }
}
