import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// Every bind type the server uses survives a statement run twice (on PostgreSQL the second
/// run goes through the named prepared statement the first one prepared; on SQLite through
/// the connection's kept statement), values and nils alike.
@Suite struct BindRoundTripConformanceTests {
    struct Row: Codable, Equatable, Sendable {
        var id: String
        var small: Int?
        var large: Int64?
        var flag: Bool?
        var ratio: Double?
        var bytes: Data?
        var label: String?
    }

    @Test(arguments: Backend.all)
    func everyBindTypeRoundTripsOnRepeatedRuns(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await database.sql.create(table: "bind_rows")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("small", type: .bigint).column("large", type: .bigint)
                .column("flag", type: .custom(SQLRaw("BOOLEAN"))).column("ratio", type: .custom(SQLRaw("DOUBLE PRECISION")))
                .column("bytes", type: .blob).column("label", type: .text)
                .run()
            let rows = [
                Row(id: "a", small: -7, large: 1_700_000_000_123, flag: true, ratio: 0.25, bytes: Data([0, 1, 255]), label: "é ✓"),
                Row(id: "b", small: 0, large: Int64.max, flag: false, ratio: -3.5, bytes: Data(), label: ""),
                Row(id: "c"),
            ]
            for row in rows {
                try await database.sql.raw("""
                    INSERT INTO bind_rows (id, small, large, flag, ratio, bytes, label) VALUES (\(bind: row.id),
                        \(bind: row.small), \(bind: row.large), \(bind: row.flag), \(bind: row.ratio), \(bind: row.bytes), \(bind: row.label))
                    """).run()
            }
            for row in rows {
                for _ in 0..<2 {
                    let read = try await database.sql.raw("""
                        SELECT id, small, large, flag, ratio, bytes, label FROM bind_rows WHERE id = \(bind: row.id)
                        """).first(decoding: Row.self)
                    #expect(read == row)
                }
            }
            let ids = try await database.sql.raw("""
                SELECT id FROM bind_rows WHERE flag = \(bind: true) OR large = \(bind: Int64.max) ORDER BY id
                """).all(decodingColumn: "id", as: String.self)
            #expect(ids == ["a", "b"])
        }
    }
}
