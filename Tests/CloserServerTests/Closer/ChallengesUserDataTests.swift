@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// Account deletion and export cover the challenge tables.
@Suite struct ChallengesUserDataTests {
    /// Every challenge table with its user column.
    static let userColumns: [(table: String, column: String)] = [
        ("closer_challenge_steps", "user_id"), ("closer_challenge_reminders", "user_id"),
        ("closer_challenge_instances", "started_by"), ("closer_challenge_pushes", "user_id"),
    ]

    @Test func everyUserColumnIsInClosersEntryAndTheMigrationIsRegistered() {
        let registered = Set(CloserSchema.userDataEntry.tables.map { "\($0.name).\($0.userColumn)" })
        for (table, column) in Self.userColumns { #expect(registered.contains("\(table).\(column)"), "\(table)") }
        #expect(CloserSchema.migrations.filter { $0.name == "closer_0005_challenges" }.count == 1)
    }

    @Test(arguments: Backend.all)
    func deletingEitherAccountRemovesTheCouplesChallengesAndTheExportHoldsTheCallersRows(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { app, client in
            let couple = try await client.datesCouple("challenge-delete")
            let bystanders = try await client.datesCouple("challenge-keep")
            for pair in [couple, bystanders] {
                let id = try await client.joinedChallenge(pair, "gratitude-7", token: pair.a.accessToken)
                #expect(try await client.markDay(pair, id, 1, token: pair.a.accessToken).status == .ok)
                #expect(try await client.markDay(pair, id, 1, token: pair.b.accessToken).status == .ok)
            }
            let export = try await client.call(.get, "/v1/me/export", token: couple.a.accessToken)
            #expect(export.status == .ok)
            let exported = (client.object(export)["data"] as? [String: Any])?["closer"] as? [String: [[String: Any]]] ?? [:]
            #expect(exported["closer_challenge_steps"]?.map { $0["user_id"] as? String } == [couple.a.user.id])
            #expect(exported["closer_challenge_instances"]?.first?["started_by"] as? String == couple.a.user.id)
            #expect(exported["closer_challenge_pushes"]?.map { $0["user_id"] as? String } == [couple.a.user.id])

            let sql = app.database.sql
            let tables = ["closer_challenge_instances", "closer_challenge_steps", "closer_challenge_pushes"]
            #expect(try await client.call(.delete, "/v1/me", token: couple.b.accessToken).status == .noContent)
            for table in tables {
                #expect(try await DatesFixtures.count(table, where: "couple_id", is: couple.pair.coupleID, on: sql) == 0, "\(table)")
                #expect(try await DatesFixtures.count(table, where: "couple_id", is: bystanders.pair.coupleID, on: sql) > 0, "\(table)")
            }
        }
    }
}
