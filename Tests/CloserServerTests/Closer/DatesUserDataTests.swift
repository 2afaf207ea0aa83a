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

/// Account deletion and export cover the dates and bucket-list tables.
@Suite struct DatesUserDataTests {
    /// Every dates table with its user columns.
    static let userColumns: [(table: String, column: String)] = [
        ("closer_date_plan_events", "user_id"), ("closer_date_plans", "created_by"), ("closer_date_swipes", "user_id"),
        ("closer_date_plan_preferences", "user_id"), ("closer_bucket_items", "added_by"),
    ]
    /// Every table that holds a couple's dates content.
    static let coupleTables = ["closer_date_swipes", "closer_date_matches", "closer_date_plans", "closer_date_plan_events", "closer_date_plan_preferences", "closer_bucket_items"]

    @Test func everyUserColumnIsInClosersEntry() {
        let registered = Set(CloserSchema.userDataEntry.tables.map { "\($0.name).\($0.userColumn)" })
        for (table, column) in Self.userColumns { #expect(registered.contains("\(table).\(column)")) }
    }

    /// A couple with a row in every dates table, written by both partners.
    static func busy(_ client: any TestClientProtocol, _ prefix: String) async throws -> DatesCouple {
        let couple = try await client.datesCouple(prefix)
        for token in [couple.a.accessToken, couple.b.accessToken] {
            #expect(try await client.swipe(couple, "home-002", "love", token: token).status == .ok)
            #expect(try await client.call(.put, "\(couple.base)/dates/preferences", token: token, json: #"{"preferences":[{"category":"food","weight":2}]}"#).status == .ok)
            #expect(try await client.call(.post, "\(couple.base)/dates/plans", token: token, json: #"{"title":"Plan of \#(token.suffix(4))"}"#).status == .created)
            #expect(try await client.call(.post, "\(couple.base)/bucket", token: token, json: #"{"title":"Item of \#(token.suffix(4))"}"#).status == .created)
        }
        return couple
    }

    @Test(arguments: Backend.all)
    func deletingEitherAccountRemovesTheCouplesDates(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { app, client in
            let couple = try await Self.busy(client, "dates-delete")
            let bystanders = try await Self.busy(client, "dates-keep")
            let sql = app.database.sql
            for table in Self.coupleTables {
                #expect(try await DatesFixtures.count(table, where: "couple_id", is: couple.pair.coupleID, on: sql) > 0, "\(table)")
            }
            let deleted = try await client.call(.delete, "/v1/me", token: couple.b.accessToken)
            #expect(deleted.status == .noContent, "\(deleted.text)")
            for table in Self.coupleTables {
                #expect(try await DatesFixtures.count(table, where: "couple_id", is: couple.pair.coupleID, on: sql) == 0, "\(table)")
                #expect(try await DatesFixtures.count(table, where: "couple_id", is: bystanders.pair.coupleID, on: sql) > 0, "\(table)")
            }
            for (table, column) in Self.userColumns {
                #expect(try await DatesFixtures.count(table, where: column, is: couple.b.user.id, on: sql) == 0, "\(table)")
            }
        }
    }

    @Test(arguments: Backend.all)
    func theExportHoldsTheCallersOwnDatesRows(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let couple = try await Self.busy(client, "dates-export")
            let response = try await client.call(.get, "/v1/me/export", token: couple.a.accessToken)
            #expect(response.status == .ok, "\(response.text)")
            let tables = (client.object(response)["data"] as? [String: Any])?["closer"] as? [String: [[String: Any]]] ?? [:]
            for (table, column) in Self.userColumns {
                let rows = tables[table] ?? []
                #expect(!rows.isEmpty, "\(table) is missing from the export")
                #expect(rows.allSatisfy { $0[column] as? String == couple.a.user.id }, "\(table) holds another user's rows")
            }
            #expect(tables["closer_date_swipes"]?.map { $0["idea_id"] as? String } == ["home-002"])
            #expect(tables["closer_bucket_items"]?.map { $0["title"] as? String } == ["Item of \(couple.a.accessToken.suffix(4))"])
        }
    }
}
