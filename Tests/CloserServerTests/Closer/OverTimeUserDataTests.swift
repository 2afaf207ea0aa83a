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

/// Account deletion and export cover the check-in and capsule tables.
@Suite struct OverTimeUserDataTests {
    /// Every table with its user column.
    static let userColumns: [(table: String, column: String)] = [
        ("closer_outcomes", "user_id"), ("closer_outcome_reminders", "user_id"), ("closer_capsules", "created_by"),
    ]

    @Test func everyUserColumnIsInClosersEntryAndTheMigrationIsRegistered() {
        let registered = Set(CloserSchema.userDataEntry.tables.map { "\($0.name).\($0.userColumn)" })
        for (table, column) in Self.userColumns { #expect(registered.contains("\(table).\(column)"), "\(table)") }
        #expect(CloserSchema.migrations.map(\.name).contains("closer_0004_outcomes_capsules"))
    }

    @Test(arguments: Backend.all)
    func deletingEitherAccountRemovesTheCouplesCheckInsAndCapsules(backend: Backend) async throws {
        let clock = TestClock(start: try instant("2026-06-01T12:00:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { app, client in
            let sql = app.database.sql
            var couples: [DatesCouple] = []
            for prefix in ["ot-delete", "ot-keep"] {
                let couple = try await client.datesCouple(prefix)
                let cipher = try GamesFixtures.cipher()
                let answers = try OverTimeFixtures.answers("ok", cipher: cipher, coupleID: couple.pair.coupleID)
                #expect(try await client.call(.put, "\(couple.base)/outcomes/day_0", token: couple.a.accessToken, json: answers).status == .created)
                let capsule = try OverTimeFixtures.capsule(title: "t", content: "c", unlockAt: "2026-07-01T00:00:00Z", cipher: cipher, coupleID: couple.pair.coupleID)
                #expect(try await client.call(.post, "\(couple.base)/capsules", token: couple.a.accessToken, json: capsule).status == .created)
                couples.append(couple)
            }
            let export = try await client.call(.get, "/v1/me/export", token: couples[0].a.accessToken)
            #expect(export.status == .ok, "\(export.text)")
            let tables = (client.object(export)["data"] as? [String: Any])?["closer"] as? [String: [[String: Any]]] ?? [:]
            #expect(tables["closer_outcomes"]?.map { $0["day_key"] as? String } == ["day_0"])
            #expect(tables["closer_capsules"]?.map { $0["created_by"] as? String } == [couples[0].a.user.id])
            #expect(try await client.call(.delete, "/v1/me", token: couples[0].b.accessToken).status == .noContent)
            for table in ["closer_outcomes", "closer_capsules"] {
                #expect(try await DatesFixtures.count(table, where: "couple_id", is: couples[0].pair.coupleID, on: sql) == 0, "\(table)")
                #expect(try await DatesFixtures.count(table, where: "couple_id", is: couples[1].pair.coupleID, on: sql) == 1, "\(table)")
            }
        }
    }
}
