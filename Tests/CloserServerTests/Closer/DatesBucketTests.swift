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

/// The bucket list: either partner adds, completes, reopens and removes; typed refusals.
@Suite struct DatesBucketTests {
    @Test(arguments: Backend.all)
    func eitherPartnerAddsCompletesAndRemoves(backend: Backend) async throws {
        let clock = TestClock()
        try await TestApplication.run(on: backend, clock: clock) { app, client in
            let couple = try await client.datesCouple("bucket")
            let path = "\(couple.base)/bucket"
            let first = try await client.call(.post, path, token: couple.a.accessToken, json: #"{"title":"See the northern lights","category":"adventure"}"#)
            #expect(first.status == .created, "\(first.text)")
            let firstID = client.object(first)["id"] as? String ?? ""
            #expect(client.object(first)["addedBy"] as? String == couple.a.user.id)
            clock.advance(by: .seconds(1))
            let second = client.object(try await client.call(.post, path, token: couple.b.accessToken, json: #"{"title":"Learn to tango"}"#))
            let secondID = second["id"] as? String ?? ""
            #expect(second["category"] == nil)
            #expect(client.ids(try await client.call(.get, path, token: couple.b.accessToken), "items") == [firstID, secondID])

            clock.advance(by: .seconds(1))
            let done = client.object(try await client.call(.patch, "\(path)/\(firstID)", token: couple.b.accessToken, json: #"{"completed":true}"#))
            #expect(done["completedBy"] as? String == couple.b.user.id)
            #expect(done["completedAt"] is String)
            // Open items first, then completed ones.
            #expect(client.ids(try await client.call(.get, path, token: couple.a.accessToken), "items") == [secondID, firstID])
            let reopened = client.object(try await client.call(.patch, "\(path)/\(firstID)", token: couple.a.accessToken, json: #"{"completed":false}"#))
            #expect(reopened["completedAt"] == nil && reopened["completedBy"] == nil)

            #expect(try await client.call(.delete, "\(path)/\(secondID)", token: couple.a.accessToken).status == .noContent)
            let gone = try await client.call(.delete, "\(path)/\(secondID)", token: couple.b.accessToken)
            #expect(gone.status == .notFound && gone.errorCode == "bucket_item_not_found")
            #expect(client.ids(try await client.call(.get, path, token: couple.b.accessToken), "items") == [firstID])
            let events = try await DatesFixtures.events(of: couple.pair.coupleID, on: app.database.sql)
            #expect(events.filter { $0 == "closer.bucket_updated" }.count == 5)
        }
    }

    @Test(arguments: Backend.all)
    func badItemsGetTypedErrors(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let couple = try await client.datesCouple("badbucket")
            let other = try await client.datesCouple("badbucket-other")
            let path = "\(couple.base)/bucket"
            for body in [#"{"title":""}"#, #"{"title":"\#(String(repeating: "t", count: 201))"}"#, #"{"title":"ok","category":"Not Valid"}"#] {
                let response = try await client.call(.post, path, token: couple.a.accessToken, json: body)
                #expect(response.status == .badRequest && response.errorCode == "invalid_bucket_item", "\(response.text)")
            }
            #expect(try await client.call(.post, path, token: couple.a.accessToken, json: #"{}"#).errorCode == "bad_request")
            let item = client.object(try await client.call(.post, path, token: couple.a.accessToken, json: #"{"title":"Ours"}"#))
            let itemID = item["id"] as? String ?? ""
            let unknown = try await client.call(.patch, "\(path)/\(UUID().uuidString.lowercased())", token: couple.a.accessToken, json: #"{"completed":true}"#)
            #expect(unknown.status == .notFound && unknown.errorCode == "bucket_item_not_found")
            #expect(try await client.call(.get, path, token: other.a.accessToken).errorCode == "couple_not_found")
            let foreign = "\(other.base)/bucket/\(itemID)"
            #expect(try await client.call(.delete, foreign, token: other.a.accessToken).errorCode == "bucket_item_not_found")
            #expect(client.ids(try await client.call(.get, path, token: couple.b.accessToken), "items") == [itemID])
        }
    }
}
