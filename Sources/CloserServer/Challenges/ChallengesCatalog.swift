import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// The challenges the server serves: the bundled ones merged with those operators imported (an
/// imported challenge replaces the bundled one with the same id; new ids are appended). Loaded
/// at start; an import takes effect when servers next start.
public struct ChallengesCatalog: Sendable {
    /// The challenges in catalog order.
    public let challenges: [ChallengesDocument.Challenge]
    /// Challenges by id.
    public let byID: [String: ChallengesDocument.Challenge]

    /// Builds the runtime catalog (validated unless empty).
    /// - Throws: `ChallengesError` when a challenge breaks a rule.
    public init(_ challenges: [ChallengesDocument.Challenge]) throws(ChallengesError) {
        if !challenges.isEmpty { try ChallengesDocument(challenges: challenges).validate() }
        self.challenges = challenges
        byID = Dictionary(uniqueKeysWithValues: challenges.map { ($0.id, $0) })
    }

    /// The bundled challenges alone (none when the resource is missing or invalid).
    public static var bundled: ChallengesCatalog {
        (try? ChallengesCatalog(bundledChallenges())) ?? .empty
    }

    /// A catalog with no challenges.
    static let empty = ChallengesCatalog(unchecked: [])

    private init(unchecked challenges: [ChallengesDocument.Challenge]) {
        self.challenges = challenges
        byID = [:]
    }

    /// The challenges bundled with the server (`closer-challenges.json`), or none when the
    /// resource is not bundled.
    /// - Throws: `ChallengesError` when the bundled resource is invalid.
    public static func bundledChallenges() throws(ChallengesError) -> [ChallengesDocument.Challenge] {
        guard let url = Bundle.module.url(forResource: "closer-challenges", withExtension: "json"),
            let data = try? Data(contentsOf: url)
        else { return [] }
        return try ChallengesDocument(json: data).challenges
    }

    /// The bundled challenges merged with the imported ones stored in `database`.
    /// - Throws: `ChallengesError` or a database error.
    public static func load(from database: Database) async throws -> ChallengesCatalog {
        try await load(on: database.sql)
    }

    /// The bundled challenges merged with the imported ones readable on `sql`.
    static func load(on sql: any SQLDatabase) async throws -> ChallengesCatalog {
        let rows = try await sql.select().columns("id", "document").from("closer_challenge_imports").orderBy("imported_at").orderBy("id").all()
        let imported = try rows.map { row in
            let text = try row.decode(column: "document", as: String.self)
            do {
                return try JSONDecoder().decode(ChallengesDocument.Challenge.self, from: Data(text.utf8))
            } catch {
                throw ChallengesError.invalidJSON("stored challenge \(try row.decode(column: "id", as: String.self)): \(error)")
            }
        }
        return try ChallengesCatalog(merging(imported, into: try bundledChallenges()))
    }

    /// `base` with each of `imported` replacing the challenge of the same id, or appended.
    static func merging(
        _ imported: [ChallengesDocument.Challenge], into base: [ChallengesDocument.Challenge]
    ) -> [ChallengesDocument.Challenge] {
        var merged = base
        for challenge in imported {
            if let index = merged.firstIndex(where: { $0.id == challenge.id }) {
                merged[index] = challenge
            } else {
                merged.append(challenge)
            }
        }
        return merged
    }
}

/// `kindred closer challenges import FILE`: validates a challenges document on its own and merged
/// with the challenges in use, then stores each challenge (replacing an earlier import of the same
/// id). Servers serve them after their next start; instances already joined keep their steps.
public enum ChallengesImport {
    /// What an import stored.
    public struct Summary: Sendable, Equatable, CustomStringConvertible {
        /// The challenge ids stored, in file order.
        public var challengeIDs: [String]
        /// The number of challenges in the merged catalog.
        public var catalogChallengeCount: Int

        /// One line for the operator.
        public var description: String {
            "imported \(challengeIDs.count) challenge(s); the catalog now has \(catalogChallengeCount) challenges (restart servers to serve them)"
        }
    }

    /// Imports `json` into `database`.
    /// - Throws: `ChallengesError` (nothing is stored then) or a database error.
    public static func run(_ json: Data, database: Database, clock: any WallClock) async throws -> Summary {
        let document = try ChallengesDocument(json: json)
        let current = try await ChallengesCatalog.load(from: database)
        let merged = try ChallengesCatalog(ChallengesCatalog.merging(document.challenges, into: current.challenges))
        let now = clock.now().millisecondsSince1970
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let encoded = try document.challenges.map { (id: $0.id, json: String(decoding: try encoder.encode($0), as: UTF8.self)) }
        try await database.transaction { sql in
            for (id, json) in encoded {
                try await sql.delete(from: "closer_challenge_imports").where("id", .equal, id).run()
                try await sql.insert(into: "closer_challenge_imports").columns("id", "document", "imported_at")
                    .values(SQLBind(id), SQLBind(json), SQLBind(now)).run()
            }
        }
        return Summary(challengeIDs: document.challenges.map(\.id), catalogChallengeCount: merged.challenges.count)
    }
}
