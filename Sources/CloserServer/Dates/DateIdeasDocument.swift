import Foundation

/// The JSON format of the date-idea catalog: the bundled `closer-date-ideas.json` and the files
/// operators import with `kindred closer dates import FILE` (docs/closer.md, "Dates and the
/// bucket list").
///
/// ```json
/// {"format":"kindred-closer-date-ideas","version":1,
///  "ideas":[{"id":"home-001","title":"…","description":"…","category":"at_home","costLevel":0,
///            "imageUrl":"https://…"}]}
/// ```
public struct DateIdeasDocument: Codable, Sendable, Equatable {
    /// One date idea.
    public struct Idea: Codable, Sendable, Equatable {
        /// The id, unique in the catalog (`^[a-z0-9][a-z0-9-]{0,63}$`).
        public var id: String
        /// The title, 1–100 characters.
        public var title: String
        /// The description, 1–500 characters.
        public var description: String
        /// One of `DateIdeasDocument.categories`.
        public var category: String
        /// 0 (free) to 3 (a splurge).
        public var costLevel: Int
        /// An optional `https` image, at most 500 characters.
        public var imageUrl: String?

        /// Creates an idea.
        public init(id: String, title: String, description: String, category: String, costLevel: Int, imageUrl: String? = nil) {
            self.id = id
            self.title = title
            self.description = description
            self.category = category
            self.costLevel = costLevel
            self.imageUrl = imageUrl
        }
    }

    /// Always `kindred-closer-date-ideas`.
    public var format: String
    /// Always 1.
    public var version: Int
    /// The ideas, in catalog order.
    public var ideas: [Idea]

    /// The format name every document carries.
    public static let formatName = "kindred-closer-date-ideas"
    /// The categories, in the order the app shows them.
    public static let categories = ["at_home", "outdoors", "food", "culture", "adventure", "budget"]

    /// Creates a document.
    public init(ideas: [Idea]) {
        format = Self.formatName
        version = 1
        self.ideas = ideas
    }

    /// Decodes and validates a document.
    /// - Throws: `DateIdeasError` naming the first problem.
    public init(json: Data) throws(DateIdeasError) {
        do {
            self = try JSONDecoder().decode(Self.self, from: json)
        } catch let error as DecodingError {
            throw .malformed(Self.describe(error))
        } catch {
            throw .malformed("\(error)")
        }
        try validate()
    }

    /// Checks the format, ids, categories, lengths, cost levels, image URLs and that no id or
    /// title repeats.
    /// - Throws: `DateIdeasError` naming the first problem.
    public func validate() throws(DateIdeasError) {
        guard format == Self.formatName, version == 1 else { throw .malformed("expected format \"\(Self.formatName)\" version 1") }
        guard !ideas.isEmpty else { throw .invalid("the document has no ideas") }
        var ids = Set<String>()
        var titles = Set<String>()
        for idea in ideas {
            guard CloserCatalogDocument.isValidID(idea.id) else { throw .invalid("idea id \"\(idea.id.prefix(64))\" is not of a-z, 0-9 and -") }
            guard ids.insert(idea.id).inserted else { throw .invalid("idea \(idea.id) appears twice") }
            let title = idea.title.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !title.isEmpty, title.count <= 100 else { throw .invalid("idea \(idea.id): title must be 1–100 characters") }
            guard titles.insert(CloserCatalogDocument.normalized(title)).inserted else { throw .invalid("idea \(idea.id) repeats another idea's title") }
            let description = idea.description.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !description.isEmpty, description.count <= 500 else { throw .invalid("idea \(idea.id): description must be 1–500 characters") }
            guard Self.categories.contains(idea.category) else {
                throw .invalid("idea \(idea.id): unknown category \"\(idea.category.prefix(64))\" (one of \(Self.categories.joined(separator: ", ")))")
            }
            guard (0...3).contains(idea.costLevel) else { throw .invalid("idea \(idea.id): costLevel must be 0–3") }
            if let image = idea.imageUrl {
                guard image.count <= 500, let url = URL(string: image), url.scheme == "https", url.host?.isEmpty == false else {
                    throw .invalid("idea \(idea.id): imageUrl must be an https URL of at most 500 characters")
                }
            }
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context): "missing \"\(key.stringValue)\" at \(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): "wrong type at \(path(context))"
        case .dataCorrupted(let context): "not valid JSON (\(context.debugDescription))"
        @unknown default: "not a date-idea document"
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return path.isEmpty ? "the top level" : path
    }
}

/// Why a date-idea document was refused.
public enum DateIdeasError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not JSON, or not of the document's shape.
    case malformed(String)
    /// Well-formed but breaking a rule (ids, categories, lengths, duplicates).
    case invalid(String)
    /// The bundled resource is missing from the build.
    case resourceMissing

    /// A one-line description.
    public var description: String {
        switch self {
        case .malformed(let why): "malformed date ideas: \(why)"
        case .invalid(let why): "invalid date ideas: \(why)"
        case .resourceMissing: "the bundled date ideas (closer-date-ideas.json) are missing from the build"
        }
    }
}
