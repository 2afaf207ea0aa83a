import KindredServerCore
import Foundation
import KindredStore
import SQLKit
import Crypto

/// The question catalog the server serves read-only: the bundled packs merged with the packs
/// operators imported (an imported pack replaces a bundled pack with the same id). Loaded at
/// start; an import takes effect when the server next starts.
public struct CloserCatalog: Sendable {
    /// A question with its pack.
    public struct Question: Sendable, Equatable {
        /// The id.
        public var id: String
        /// The pack's id.
        public var packID: String
        /// The category's id.
        public var categoryID: String
        /// The text.
        public var text: String
        /// Whether the pack is premium.
        public var isPremium: Bool
        /// Whether it may be assigned.
        public var active: Bool
    }

    /// A pack with its questions.
    public struct Pack: Sendable, Equatable {
        /// The id.
        public var id: String
        /// The title.
        public var title: String
        /// The description.
        public var description: String
        /// Whether only premium couples may make it active.
        public var isPremium: Bool
        /// All questions, in catalog order.
        public var questions: [Question]
        /// The active questions, in catalog order (what assignment chooses from).
        public var activeQuestions: [Question]
        /// The categories its questions use, in first-use order.
        public var categoryIDs: [String]
    }

    /// The merged document.
    public let document: CloserCatalogDocument
    /// The packs in catalog order.
    public let packs: [Pack]
    /// Packs by id.
    public let packsByID: [String: Pack]
    /// Questions by id.
    public let questionsByID: [String: Question]
    /// The pack couples start with: the first free pack with an active question.
    public let defaultPackID: String?
    /// A digest of the merged document (served as the catalog's `version`; devices refresh
    /// their local copy when it changes).
    public let version: String

    /// Builds the runtime catalog from a validated document.
    /// - Throws: `CloserCatalogError` when the document breaks a rule.
    public init(_ document: CloserCatalogDocument) throws(CloserCatalogError) {
        try document.validate()
        self.document = document
        var packs: [Pack] = []
        var questionsByID: [String: Question] = [:]
        for pack in document.packs {
            let questions = pack.questions.map {
                Question(
                    id: $0.id, packID: pack.id, categoryID: $0.categoryId, text: $0.text.trimmingCharacters(in: .whitespacesAndNewlines),
                    isPremium: pack.isPremium, active: $0.active ?? true
                )
            }
            var categories: [String] = []
            for question in questions where !categories.contains(question.categoryID) { categories.append(question.categoryID) }
            for question in questions { questionsByID[question.id] = question }
            packs.append(Pack(
                id: pack.id, title: pack.title, description: pack.description, isPremium: pack.isPremium,
                questions: questions, activeQuestions: questions.filter(\.active), categoryIDs: categories
            ))
        }
        self.packs = packs
        self.packsByID = Dictionary(uniqueKeysWithValues: packs.map { ($0.id, $0) })
        self.questionsByID = questionsByID
        self.defaultPackID = packs.first { !$0.isPremium && !$0.activeQuestions.isEmpty }?.id
        self.version = Self.digest(of: document)
    }

    /// The first 16 bytes of SHA-256 over the document's sorted-key JSON, in hex.
    static func digest(of document: CloserCatalogDocument) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(document)) ?? Data()
        return SHA256.hash(data: data).prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    /// The catalog bundled with the server (`closer-catalog.json`).
    /// - Throws: `CloserCatalogError` when the resource is missing or invalid.
    public static func bundledDocument() throws(CloserCatalogError) -> CloserCatalogDocument {
        guard let url = Bundle.module.url(forResource: "closer-catalog", withExtension: "json"),
            let data = try? Data(contentsOf: url)
        else { throw .resourceMissing }
        return try CloserCatalogDocument(json: data)
    }

    /// The bundled catalog merged with the imported packs stored in `database`.
    /// - Throws: `CloserCatalogError` or a database error.
    public static func load(from database: Database) async throws -> CloserCatalog {
        try await load(on: database.sql)
    }

    /// The bundled catalog merged with the imported packs readable on `sql`.
    static func load(on sql: any SQLDatabase) async throws -> CloserCatalog {
        var document = try bundledDocument()
        let rows = try await sql.select().column("document").from("closer_catalog_packs").orderBy("imported_at").orderBy("id").all()
        for row in rows {
            let imported = try CloserCatalogDocument(json: Data(try row.decode(column: "document", as: String.self).utf8))
            document = merging(imported, into: document)
        }
        return try CloserCatalog(document)
    }

    /// `base` with `imported`'s categories added (or renamed) and its packs replacing or
    /// appended to `base`'s.
    static func merging(_ imported: CloserCatalogDocument, into base: CloserCatalogDocument) -> CloserCatalogDocument {
        var merged = base
        for category in imported.categories {
            if let index = merged.categories.firstIndex(where: { $0.id == category.id }) {
                merged.categories[index] = category
            } else {
                merged.categories.append(category)
            }
        }
        for pack in imported.packs {
            if let index = merged.packs.firstIndex(where: { $0.id == pack.id }) {
                merged.packs[index] = pack
            } else {
                merged.packs.append(pack)
            }
        }
        return merged
    }
}
