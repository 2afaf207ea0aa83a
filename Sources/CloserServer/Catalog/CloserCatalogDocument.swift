import KindredServerCore
import Foundation

/// The JSON format of a question catalog: the bundled `closer-catalog.json` and the files
/// operators import with `kindred closer questions import FILE` (docs/closer.md, "Catalog").
public struct CloserCatalogDocument: Codable, Sendable, Equatable {
    /// A category questions are filed under.
    public struct Category: Codable, Sendable, Equatable {
        /// The id (`^[a-z0-9][a-z0-9-]{0,63}$`).
        public var id: String
        /// The name shown to people.
        public var name: String
    }

    /// One question.
    public struct Question: Codable, Sendable, Equatable {
        /// The id, unique in the whole catalog (`^[a-z0-9][a-z0-9-]{0,63}$`).
        public var id: String
        /// Its category's id.
        public var categoryId: String
        /// The question, 1–500 characters.
        public var text: String
        /// Whether it may be assigned (default true); retired questions stay readable.
        public var active: Bool?
    }

    /// A pack of questions.
    public struct Pack: Codable, Sendable, Equatable {
        /// The id (`^[a-z0-9][a-z0-9-]{0,63}$`).
        public var id: String
        /// The title.
        public var title: String
        /// A one-line description.
        public var description: String
        /// Whether only premium couples may make it active.
        public var isPremium: Bool
        /// Its questions, in catalog order.
        public var questions: [Question]
    }

    /// Always `kindred-closer-catalog`.
    public var format: String
    /// Always 1.
    public var version: Int
    /// The categories the packs use.
    public var categories: [Category]
    /// The packs.
    public var packs: [Pack]

    /// The format name every document carries.
    public static let formatName = "kindred-closer-catalog"

    /// Creates a document.
    public init(categories: [Category], packs: [Pack]) {
        format = Self.formatName
        version = 1
        self.categories = categories
        self.packs = packs
    }

    /// Decodes and validates a document.
    /// - Throws: `CloserCatalogError` naming the first problem.
    public init(json: Data) throws(CloserCatalogError) {
        do {
            self = try JSONDecoder().decode(Self.self, from: json)
        } catch let error as DecodingError {
            throw .malformed(Self.describe(error))
        } catch {
            throw .malformed("\(error)")
        }
        try validate()
    }

    /// Checks the format, ids, references, lengths and that no question id or text repeats.
    /// - Throws: `CloserCatalogError` naming the first problem.
    public func validate() throws(CloserCatalogError) {
        guard format == Self.formatName, version == 1 else {
            throw .malformed("expected format \"\(Self.formatName)\" version 1")
        }
        var categoryIDs = Set<String>()
        for category in categories {
            guard Self.isValidID(category.id) else { throw .invalid("category id \"\(category.id.prefix(64))\" is not of a-z, 0-9 and -") }
            guard !category.name.isEmpty, category.name.count <= 100 else { throw .invalid("category \(category.id): name must be 1–100 characters") }
            guard categoryIDs.insert(category.id).inserted else { throw .invalid("category \(category.id) appears twice") }
        }
        var packIDs = Set<String>()
        var questionIDs = Set<String>()
        var texts = Set<String>()
        for pack in packs {
            guard Self.isValidID(pack.id) else { throw .invalid("pack id \"\(pack.id.prefix(64))\" is not of a-z, 0-9 and -") }
            guard packIDs.insert(pack.id).inserted else { throw .invalid("pack \(pack.id) appears twice") }
            guard !pack.title.isEmpty, pack.title.count <= 100 else { throw .invalid("pack \(pack.id): title must be 1–100 characters") }
            guard pack.description.count <= 500 else { throw .invalid("pack \(pack.id): description is over 500 characters") }
            guard !pack.questions.isEmpty else { throw .invalid("pack \(pack.id) has no questions") }
            for question in pack.questions {
                guard Self.isValidID(question.id) else { throw .invalid("question id \"\(question.id.prefix(64))\" is not of a-z, 0-9 and -") }
                guard questionIDs.insert(question.id).inserted else { throw .invalid("question \(question.id) appears twice") }
                guard categoryIDs.contains(question.categoryId) else {
                    throw .invalid("question \(question.id): unknown category \"\(question.categoryId.prefix(64))\"")
                }
                let trimmed = question.text.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !trimmed.isEmpty, trimmed.count <= 500 else { throw .invalid("question \(question.id): text must be 1–500 characters") }
                guard texts.insert(Self.normalized(trimmed)).inserted else { throw .invalid("question \(question.id) repeats another question's text") }
            }
        }
    }

    /// Whether `id` matches `^[a-z0-9][a-z0-9-]{0,63}$`.
    public static func isValidID(_ id: String) -> Bool {
        guard let first = id.utf8.first, id.utf8.count <= 64, first != UInt8(ascii: "-") else { return false }
        return id.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") }
    }

    /// The text as duplicates are compared: lower case, inner whitespace collapsed.
    static func normalized(_ text: String) -> String {
        text.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context): "missing \"\(key.stringValue)\" at \(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): "wrong type at \(path(context))"
        case .dataCorrupted(let context): "not valid JSON (\(context.debugDescription))"
        @unknown default: "not a catalog document"
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return path.isEmpty ? "the top level" : path
    }
}

/// Why a catalog document was refused.
public enum CloserCatalogError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not JSON, or not of the catalog's shape.
    case malformed(String)
    /// Well-formed but breaking a rule (ids, references, lengths, duplicates).
    case invalid(String)
    /// The bundled catalog resource is missing from the build.
    case resourceMissing

    /// A one-line description.
    public var description: String {
        switch self {
        case .malformed(let why): "malformed catalog: \(why)"
        case .invalid(let why): "invalid catalog: \(why)"
        case .resourceMissing: "the bundled Closer catalog (closer-catalog.json) is missing from the build"
        }
    }
}
