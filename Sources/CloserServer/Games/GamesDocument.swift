import Foundation

/// The games' content packs as JSON (`closer-games.json`, and what `kindred closer games import`
/// reads): `{"packs": [{"id", "kind", "title", "description", "isPremium", "items": [{"id",
/// "prompt", "options"?}]}]}` (docs/closer.md, "Games").
public struct GamesDocument: Codable, Sendable, Equatable {
    /// The games.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// Pairs of options; the score is how often both chose the same one.
        case thisOrThat = "this_or_that"
        /// Things to lean towards; only the overlap of both partners' "yes" is revealed.
        case desireSync = "desire_sync"
        /// One answers about themself, the other guesses.
        case howWell = "how_well"
        /// A fair spin over the pack's activities.
        case wheel

        /// Rounds of slots a session of this game has: Desire Sync's private set intersection
        /// needs a second exchange (the double-blinded sets).
        public var rounds: Int { self == .desireSync ? 2 : 1 }
    }

    /// One item.
    public struct Item: Codable, Sendable, Equatable {
        /// Unique within its pack (`^[a-z0-9][a-z0-9-]{0,63}$`).
        public var id: String
        /// The question, the thing to lean towards or the wheel's activity (1–300 characters).
        public var prompt: String
        /// This or That: exactly two; How Well: two to four; the others: none.
        public var options: [String]?

        /// Creates an item.
        public init(id: String, prompt: String, options: [String]? = nil) {
            self.id = id
            self.prompt = prompt
            self.options = options
        }
    }

    /// One pack.
    public struct Pack: Codable, Sendable, Equatable {
        /// Unique across every game (`^[a-z0-9][a-z0-9-]{0,63}$`).
        public var id: String
        /// Its game.
        public var kind: Kind
        /// 1–80 characters.
        public var title: String
        /// 0–300 characters.
        public var description: String
        /// Whether only premium couples may open it.
        public var isPremium: Bool
        /// 1–200 items.
        public var items: [Item]

        /// Creates a pack.
        public init(id: String, kind: Kind, title: String, description: String, isPremium: Bool, items: [Item]) {
            self.id = id
            self.kind = kind
            self.title = title
            self.description = description
            self.isPremium = isPremium
            self.items = items
        }
    }

    /// The packs.
    public var packs: [Pack]

    /// Creates a document.
    public init(packs: [Pack]) {
        self.packs = packs
    }

    /// Decodes and validates `json`.
    /// - Throws: `GamesError.invalidJSON` or the first rule broken.
    public init(json: Data) throws(GamesError) {
        let decoded: GamesDocument
        do {
            decoded = try JSONDecoder().decode(GamesDocument.self, from: json)
        } catch {
            throw .invalidJSON(String(describing: error))
        }
        try decoded.validate()
        self = decoded
    }

    /// Checks every rule above.
    /// - Throws: `GamesError.invalidPack` naming the pack and the problem.
    public func validate() throws(GamesError) {
        guard !packs.isEmpty else { throw .invalidPack(id: "", "the document has no packs") }
        var packIDs = Set<String>()
        for pack in packs {
            guard Self.isID(pack.id) else { throw .invalidPack(id: pack.id, "id must match ^[a-z0-9][a-z0-9-]{0,63}$") }
            guard packIDs.insert(pack.id).inserted else { throw .invalidPack(id: pack.id, "the id appears twice") }
            guard (1...80).contains(pack.title.count) else { throw .invalidPack(id: pack.id, "title must be 1–80 characters") }
            guard pack.description.count <= 300 else { throw .invalidPack(id: pack.id, "description is longer than 300 characters") }
            guard (1...200).contains(pack.items.count) else { throw .invalidPack(id: pack.id, "a pack has 1–200 items") }
            var itemIDs = Set<String>()
            for item in pack.items {
                guard Self.isID(item.id) else { throw .invalidPack(id: pack.id, "item \(item.id): id must match ^[a-z0-9][a-z0-9-]{0,63}$") }
                guard itemIDs.insert(item.id).inserted else { throw .invalidPack(id: pack.id, "item \(item.id) appears twice") }
                guard (1...300).contains(item.prompt.count) else { throw .invalidPack(id: pack.id, "item \(item.id): prompt must be 1–300 characters") }
                let options = item.options ?? []
                guard options.allSatisfy({ (1...120).contains($0.count) }) else {
                    throw .invalidPack(id: pack.id, "item \(item.id): each option must be 1–120 characters")
                }
                let allowed: ClosedRange<Int> = switch pack.kind {
                case .thisOrThat: 2...2
                case .howWell: 2...4
                case .desireSync, .wheel: 0...0
                }
                guard allowed.contains(options.count) else {
                    throw .invalidPack(id: pack.id, "item \(item.id): a \(pack.kind.rawValue) item has \(allowed.lowerBound)–\(allowed.upperBound) options")
                }
            }
        }
    }

    /// Whether `id` matches `^[a-z0-9][a-z0-9-]{0,63}$`.
    static func isID(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard (1...64).contains(bytes.count), bytes[0] != UInt8(ascii: "-") else { return false }
        return bytes.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") }
    }
}

/// Why a games document was refused.
public enum GamesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bundled `closer-games.json` is missing from the server's resources.
    case resourceMissing
    /// Not a JSON document of the expected shape.
    case invalidJSON(String)
    /// A pack breaks a rule.
    case invalidPack(id: String, String)

    /// One line for the operator.
    public var description: String {
        switch self {
        case .resourceMissing: "the bundled closer-games.json is missing"
        case .invalidJSON(let why): "not a games document: \(why)"
        case .invalidPack(let id, let why): id.isEmpty ? why : "pack \(id): \(why)"
        }
    }
}
