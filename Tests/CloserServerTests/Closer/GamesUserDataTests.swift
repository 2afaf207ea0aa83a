@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredCrypto
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// Account deletion and export cover the games tables, and the database holds no answer in
/// plaintext after a game.
@Suite struct GamesUserDataTests {
    /// Every games table with its user column.
    static let userColumns: [(table: String, column: String)] = [
        ("closer_game_slots", "user_id"), ("closer_game_sessions", "started_by"), ("closer_game_pushes", "user_id"),
    ]

    @Test func everyUserColumnIsInClosersEntry() {
        let registered = Set(CloserSchema.userDataEntry.tables.map { "\($0.name).\($0.userColumn)" })
        for (table, column) in Self.userColumns { #expect(registered.contains("\(table).\(column)"), "\(table)") }
        // Append only: later migrations come after these three, never between them.
        #expect(CloserSchema.migrations.map(\.name).prefix(3) == ["0007_closer", "closer_0002_dates", "closer_0003_games"])
    }

    /// A couple with a finished round (both partners' slots) and a push row for each.
    static func played(_ client: any TestClientProtocol, _ prefix: String, answers: (String, String)) async throws -> DatesCouple {
        let couple = try await client.datesCouple(prefix)
        let cipher = try GamesFixtures.cipher()
        let session = try await client.startGame(couple, "how_well", pack: "hw-basics", token: couple.a.accessToken)
        let turns = (
            try GameTurn(answers.0, cipher: cipher, coupleID: couple.pair.coupleID, sessionID: session, userID: couple.a.user.id),
            try GameTurn(answers.1, cipher: cipher, coupleID: couple.pair.coupleID, sessionID: session, userID: couple.b.user.id)
        )
        #expect(try await client.commit(couple, session, turns.0, token: couple.a.accessToken).status == .ok)
        #expect(try await client.commit(couple, session, turns.1, token: couple.b.accessToken).status == .ok)
        #expect(try await client.open(couple, session, turns.0, token: couple.a.accessToken).status == .ok)
        #expect(try await client.open(couple, session, turns.1, token: couple.b.accessToken).status == .ok)
        _ = try await client.startGame(couple, "wheel", pack: "wheel-evening", token: couple.b.accessToken)
        return couple
    }

    @Test(arguments: Backend.all)
    func deletingEitherAccountRemovesTheCouplesGames(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { app, client in
            let couple = try await Self.played(client, "games-delete", answers: ("a", "b"))
            let bystanders = try await Self.played(client, "games-keep", answers: ("c", "d"))
            let sql = app.database.sql
            let tables = ["closer_game_sessions", "closer_game_slots", "closer_game_pushes"]
            for table in tables {
                #expect(try await DatesFixtures.count(table, where: "couple_id", is: couple.pair.coupleID, on: sql) > 0, "\(table)")
            }
            #expect(try await client.call(.delete, "/v1/me", token: couple.b.accessToken).status == .noContent)
            for table in tables {
                #expect(try await DatesFixtures.count(table, where: "couple_id", is: couple.pair.coupleID, on: sql) == 0, "\(table)")
                #expect(try await DatesFixtures.count(table, where: "couple_id", is: bystanders.pair.coupleID, on: sql) > 0, "\(table)")
            }
        }
    }

    @Test(arguments: Backend.all)
    func theExportHoldsTheCallersOwnGameRows(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let couple = try await Self.played(client, "games-export", answers: ("a", "b"))
            let response = try await client.call(.get, "/v1/me/export", token: couple.a.accessToken)
            #expect(response.status == .ok)
            let tables = (client.object(response)["data"] as? [String: Any])?["closer"] as? [String: [[String: Any]]] ?? [:]
            #expect(tables["closer_game_slots"]?.count == 1)
            #expect(tables["closer_game_slots"]?.first?["user_id"] as? String == couple.a.user.id)
            #expect((tables["closer_game_slots"]?.first?["ciphertext"] as? String)?.hasPrefix("enc:v1:") == true)
            #expect(tables["closer_game_sessions"]?.count == 1)
            #expect(tables["closer_game_sessions"]?.first?["started_by"] as? String == couple.a.user.id)
            #expect(tables["closer_game_pushes"]?.map { $0["user_id"] as? String } == [couple.a.user.id])
        }
    }

    @Test func theSQLiteFileHoldsNoAnswerInPlaintextAfterAGame() async throws {
        let answers = ("my-secret-answer-4f1c9e", "partner-secret-answer-7b2d0a")
        try await TestApplication.run(on: .sqlite) { app, client in
            _ = try await Self.played(client, "games-scan", answers: answers)
            guard case .sqlite(let path) = app.database.configuration.url else {
                Issue.record("not a SQLite file")
                return
            }
            var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            for suffix in ["-wal", "-journal"] {
                if let extra = try? Data(contentsOf: URL(fileURLWithPath: path + suffix)) { bytes.append(extra) }
            }
            // The scan can fail: the file does hold what was written in plaintext.
            #expect(bytes.range(of: Data("hw-basics".utf8)) != nil)
            for answer in [answers.0, answers.1] {
                #expect(bytes.range(of: Data(answer.utf8)) == nil, "\(answer) is in the database file")
            }
        }
    }
}
