@testable import KindredServer
@testable import KindredServerCore
@testable import StreakServer
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// Account deletion and export cover StreakSync's tables.
@Suite struct StreakUserDataTests {
    /// Every StreakSync table and the user columns it has.
    static let userColumns: [(table: String, columns: [String])] = [
        ("streaksync_sync_clocks", ["user_id"]),
        ("streaksync_results", ["user_id"]),
        ("streaksync_achievements", ["user_id"]),
        ("streaksync_profiles", ["user_id"]),
        ("streaksync_friend_codes", ["user_id"]),
        ("streaksync_friendships", ["sender_id", "recipient_id"]),
        ("streaksync_score_readers", ["reader_id", "publisher_id"]),
        ("streaksync_scores", ["user_id"]),
    ]

    @Test func everyUserColumnIsRegisteredForDeletionAndExport() {
        let registered = Set(StreakSchema.userDataEntry.tables.map { "\($0.name).\($0.userColumn)" })
        let expected = Set(Self.userColumns.flatMap { table in table.columns.map { "\(table.table).\($0)" } })
        #expect(registered == expected)
    }

    @Test(arguments: Backend.all)
    func theTablesAreExactlyTheOnesListed(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { application, _ in
            let sql = application.database.sql
            let names: [String]
            if sql.dialect.name == "sqlite" {
                names = try await sql.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'streaksync%'").all()
                    .map { try $0.decode(column: "name", as: String.self) }
            } else {
                names = try await sql.raw("SELECT tablename AS name FROM pg_tables WHERE tablename LIKE 'streaksync%'").all()
                    .map { try $0.decode(column: "name", as: String.self) }
            }
            #expect(Set(names) == Set(Self.userColumns.map(\.table)))
        }
    }

    /// Rows of every StreakSync table that name `userID` in any user column.
    static func rows(of userID: String, on database: Database) async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for (table, columns) in userColumns {
            var total = 0
            for column in columns {
                total += try await StreakFixtures.count(table, where: column, is: userID, on: database)
            }
            counts[table] = total
        }
        return counts
    }

    /// Ada with everything StreakSync stores: results, achievements, a profile and code, a friend
    /// (Bea), a pending request from Cleo, and scores.
    static func busy(_ client: any TestClientProtocol) async throws -> (ada: StreakMember, bea: StreakMember, cleo: StreakMember) {
        let ada = try await client.streakMember("ada", displayName: "Ada")
        let bea = try await client.streakMember("bea", displayName: "Bea")
        let cleo = try await client.streakMember("cleo", displayName: "Cleo")
        try await client.befriend(ada, bea)
        _ = try await client.pendingFriendship(from: cleo, to: ada)
        #expect(try await client.streak(.post, "/v1/streaksync/results", token: ada.token, json: StreakFixtures.results([StreakFixtures.result("r1")])).status == .ok)
        #expect(try await client.streak(.post, "/v1/streaksync/achievements", token: ada.token, json: StreakFixtures.achievements([StreakFixtures.achievement("a1")])).status == .ok)
        #expect(try await client.publish(ada, score: 3).status == .ok)
        #expect(try await client.publish(bea, score: 4).status == .ok)
        return (ada, bea, cleo)
    }

    @Test(arguments: Backend.all)
    func deletingAnAccountRemovesEveryRowAndItsPlaceAmongItsFriendsReaders(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { application, client in
            let database = application.database
            let (ada, bea, cleo) = try await Self.busy(client)
            let before = try await Self.rows(of: ada.id, on: database)
            for (table, _) in Self.userColumns {
                #expect((before[table] ?? 0) > 0, "\(table) has no row of Ada's before deletion")
            }
            #expect(try await StreakFixtures.readers(of: bea.id, on: database).contains(ada.id))

            let deleted = try await client.call(.delete, "/v1/me", app: "streaksync", token: ada.token)
            #expect(deleted.status == .noContent, "\(deleted.text)")
            let after = try await Self.rows(of: ada.id, on: database)
            #expect(after.values.allSatisfy { $0 == 0 }, "\(after)")
            // Bea no longer has Ada among her readers, friends or board; her own data stays.
            #expect(try await StreakFixtures.readers(of: bea.id, on: database) == [bea.id])
            let beas = client.object(try await client.streak(.get, "/v1/streaksync/friends", token: bea.token))
            #expect((beas["friends"] as? [Any])?.isEmpty == true)
            #expect(try await client.board(bea).entries == [bea.id])
            // Cleo's request went with Ada; Cleo may befriend Bea as before.
            let cleos = client.object(try await client.streak(.get, "/v1/streaksync/friends", token: cleo.token))
            #expect((cleos["outgoing"] as? [Any])?.isEmpty == true)
            #expect(try await client.befriend(cleo, bea).isEmpty == false)
        }
    }

    @Test(arguments: Backend.all)
    func theExportHoldsTheAccountsStreakSyncRows(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { _, client in
            let (ada, _, _) = try await Self.busy(client)
            let response = try await client.call(.get, "/v1/me/export", app: "streaksync", token: ada.token)
            #expect(response.status == .ok, "\(response.text)")
            let data = client.object(response)["data"] as? [String: Any]
            let tables = data?["streaksync"] as? [String: [[String: Any]]] ?? [:]
            #expect(Set(tables.keys) == Set(Self.userColumns.map(\.table)))
            #expect(tables["streaksync_results"]?.map { $0["id"] as? String } == ["r1"])
            #expect(tables["streaksync_achievements"]?.map { $0["id"] as? String } == ["a1"])
            #expect(tables["streaksync_profiles"]?.first?["display_name"] as? String == "Ada")
            #expect(tables["streaksync_friend_codes"]?.first?["code"] is String)
            #expect(tables["streaksync_friendships"]?.count == 2)
            #expect(tables["streaksync_scores"]?.map { $0["local_date"] as? String } == [StreakFixtures.today])
            // Ada's readers (herself and Bea) and whom she reads (herself and Bea): self counted once per column.
            #expect(tables["streaksync_score_readers"]?.count == 4)
            // Bea's score is not in Ada's export.
            #expect(tables["streaksync_scores"]?.allSatisfy { $0["user_id"] as? String == ada.id } == true)
        }
    }
}
