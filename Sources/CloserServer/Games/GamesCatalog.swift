import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// The game packs the server serves: the bundled packs merged with those operators imported (an
/// imported pack replaces the bundled pack with the same id; new ids are appended). Loaded at
/// start; an import takes effect when servers next start.
public struct GamesCatalog: Sendable {
    /// The packs in catalog order.
    public let packs: [GamesDocument.Pack]
    /// Packs by id.
    public let packsByID: [String: GamesDocument.Pack]

    /// Builds the runtime catalog from packs (validated unless empty).
    /// - Throws: `GamesError` when a pack breaks a rule.
    public init(_ packs: [GamesDocument.Pack]) throws(GamesError) {
        if !packs.isEmpty { try GamesDocument(packs: packs).validate() }
        self.packs = packs
        packsByID = Dictionary(uniqueKeysWithValues: packs.map { ($0.id, $0) })
    }

    /// The packs bundled with the server (`closer-games.json`), or none when the resource is not
    /// bundled.
    /// - Throws: `GamesError` when the bundled resource is invalid.
    public static func bundledPacks() throws(GamesError) -> [GamesDocument.Pack] {
        guard let url = Bundle.module.url(forResource: "closer-games", withExtension: "json"),
            let data = try? Data(contentsOf: url)
        else { return [] }
        return try GamesDocument(json: data).packs
    }

    /// The bundled packs merged with the imported ones stored in `database`.
    /// - Throws: `GamesError` or a database error.
    public static func load(from database: Database) async throws -> GamesCatalog {
        try await load(on: database.sql)
    }

    /// The bundled packs merged with the imported ones readable on `sql`.
    static func load(on sql: any SQLDatabase) async throws -> GamesCatalog {
        let rows = try await sql.select().columns("id", "document").from("closer_game_pack_imports").orderBy("imported_at").orderBy("id").all()
        let imported = try rows.map { row in
            let text = try row.decode(column: "document", as: String.self)
            do {
                return try JSONDecoder().decode(GamesDocument.Pack.self, from: Data(text.utf8))
            } catch {
                throw GamesError.invalidJSON("stored pack \(try row.decode(column: "id", as: String.self)): \(error)")
            }
        }
        return try GamesCatalog(merging(imported, into: try bundledPacks()))
    }

    /// `base` with each of `imported` replacing the pack of the same id, or appended.
    static func merging(_ imported: [GamesDocument.Pack], into base: [GamesDocument.Pack]) -> [GamesDocument.Pack] {
        var merged = base
        for pack in imported {
            if let index = merged.firstIndex(where: { $0.id == pack.id }) {
                merged[index] = pack
            } else {
                merged.append(pack)
            }
        }
        return merged
    }
}

/// `kindred closer games import FILE`: validates a games document on its own and merged with the
/// packs in use, then stores each pack (replacing an earlier import of the same id). Servers
/// serve them after their next start.
public enum GamesImport {
    /// What an import stored.
    public struct Summary: Sendable, Equatable, CustomStringConvertible {
        /// The pack ids stored, in file order.
        public var packIDs: [String]
        /// The number of items in the packs stored.
        public var itemCount: Int
        /// The number of packs in the merged catalog.
        public var catalogPackCount: Int

        /// One line for the operator.
        public var description: String {
            "imported \(packIDs.count) game pack(s) with \(itemCount) item(s); the catalog now has \(catalogPackCount) packs (restart servers to serve them)"
        }
    }

    /// Imports `json` into `database`.
    /// - Throws: `GamesError` (nothing is stored then) or a database error.
    public static func run(_ json: Data, database: Database, clock: any WallClock) async throws -> Summary {
        let document = try GamesDocument(json: json)
        let current = try await GamesCatalog.load(from: database)
        let merged = try GamesCatalog(GamesCatalog.merging(document.packs, into: current.packs))
        let now = clock.now().millisecondsSince1970
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let encoded = try document.packs.map { (pack: $0, json: String(decoding: try encoder.encode($0), as: UTF8.self)) }
        try await database.transaction { sql in
            for (pack, json) in encoded {
                try await sql.delete(from: "closer_game_pack_imports").where("id", .equal, pack.id).run()
                try await sql.insert(into: "closer_game_pack_imports").columns("id", "document", "imported_at")
                    .values(SQLBind(pack.id), SQLBind(json), SQLBind(now)).run()
            }
        }
        return Summary(packIDs: document.packs.map(\.id), itemCount: document.packs.reduce(0) { $0 + $1.items.count }, catalogPackCount: merged.packs.count)
    }
}
