import Foundation

/// Connection challenges as JSON (`closer-challenges.json`, and what `kindred closer challenges
/// import` reads): `{"version": 1, "challenges": [{"id", "title", "description", "category",
/// "isPremium", "days": ["step", …]}]}` (docs/closer.md, "Connection challenges").
public struct ChallengesDocument: Codable, Sendable, Equatable {
    /// The only format version this server reads.
    public static let currentVersion = 1
    /// The fewest and most days a challenge has.
    public static let dayRange = 2...30

    /// One multi-day challenge.
    public struct Challenge: Codable, Sendable, Equatable {
        /// Unique across the catalog (`^[a-z0-9][a-z0-9-]{0,63}$`).
        public var id: String
        /// 1–80 characters.
        public var title: String
        /// 0–300 characters.
        public var description: String
        /// `^[a-z][a-z_]{0,31}$` (appreciation, presence, …).
        public var category: String
        /// Whether only premium couples may join it.
        public var isPremium: Bool
        /// Each day's step (2–30 days, each 1–200 characters).
        public var days: [String]

        /// Creates a challenge.
        public init(id: String, title: String, description: String, category: String, isPremium: Bool, days: [String]) {
            self.id = id
            self.title = title
            self.description = description
            self.category = category
            self.isPremium = isPremium
            self.days = days
        }
    }

    /// The format version (1).
    public var version: Int
    /// The challenges.
    public var challenges: [Challenge]

    /// Creates a document.
    public init(version: Int = ChallengesDocument.currentVersion, challenges: [Challenge]) {
        self.version = version
        self.challenges = challenges
    }

    /// Decodes and validates `json`.
    /// - Throws: `ChallengesError.invalidJSON` or the first rule broken.
    public init(json: Data) throws(ChallengesError) {
        let decoded: ChallengesDocument
        do {
            decoded = try JSONDecoder().decode(ChallengesDocument.self, from: json)
        } catch {
            throw .invalidJSON(String(describing: error))
        }
        try decoded.validate()
        self = decoded
    }

    /// Checks every rule above.
    /// - Throws: `ChallengesError.unsupportedVersion` or `.invalidChallenge` naming the challenge.
    public func validate() throws(ChallengesError) {
        guard version == Self.currentVersion else { throw .unsupportedVersion(version) }
        guard !challenges.isEmpty else { throw .invalidChallenge(id: "", "the document has no challenges") }
        var ids = Set<String>()
        for challenge in challenges {
            let id = challenge.id
            guard GamesDocument.isID(id) else { throw .invalidChallenge(id: id, "id must match ^[a-z0-9][a-z0-9-]{0,63}$") }
            guard ids.insert(id).inserted else { throw .invalidChallenge(id: id, "the id appears twice") }
            guard (1...80).contains(challenge.title.count) else { throw .invalidChallenge(id: id, "title must be 1–80 characters") }
            guard challenge.description.count <= 300 else { throw .invalidChallenge(id: id, "description is longer than 300 characters") }
            guard Self.isCategory(challenge.category) else { throw .invalidChallenge(id: id, "category must match ^[a-z][a-z_]{0,31}$") }
            guard Self.dayRange.contains(challenge.days.count) else { throw .invalidChallenge(id: id, "a challenge has 2–30 days") }
            for (index, step) in challenge.days.enumerated() where !(1...200).contains(step.count) {
                throw .invalidChallenge(id: id, "day \(index + 1): the step must be 1–200 characters")
            }
        }
    }

    /// Whether `category` matches `^[a-z][a-z_]{0,31}$`.
    static func isCategory(_ category: String) -> Bool {
        let bytes = Array(category.utf8)
        guard (1...32).contains(bytes.count), (0x61...0x7A).contains(bytes[0]) else { return false }
        return bytes.allSatisfy { (0x61...0x7A).contains($0) || $0 == UInt8(ascii: "_") }
    }
}

/// Why a challenges document was refused.
public enum ChallengesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a JSON document of the expected shape.
    case invalidJSON(String)
    /// A `version` other than 1.
    case unsupportedVersion(Int)
    /// A challenge breaks a rule.
    case invalidChallenge(id: String, String)

    /// One line for the operator.
    public var description: String {
        switch self {
        case .invalidJSON(let why): "not a challenges document: \(why)"
        case .unsupportedVersion(let version): "unsupported challenges version \(version) (this server reads version 1)"
        case .invalidChallenge(let id, let why): id.isEmpty ? why : "challenge \(id): \(why)"
        }
    }
}
