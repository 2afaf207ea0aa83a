import Foundation
import HTTPTypes
import HummingbirdTesting
@testable import KindredServerCore
import KindredServerTestSupport
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// The integrity tables in account export and deletion, and who may use whose key.
@Suite struct IntegrityUserDataTests {
    static func count(_ table: String, _ userID: String, _ sql: any SQLDatabase) async throws -> Int {
        try await sql.select().column("user_id").from(table).where("user_id", .equal, userID).all().count
    }

    @Test(arguments: Backend.all)
    func exportListsAndDeletionRemovesTheDevicesRows(backend: Backend) async throws {
        let device = try IntegrityTestDevice()
        try await IntegrityTestApplication.run(on: backend, device: device) { database, _, client in
            let session = try await client.anonymous()
            let other = try await client.anonymous()
            #expect(try await client.registerKey(device, token: session.accessToken).status == .created)
            #expect(try await client.assert(device, counter: 1, token: session.accessToken).status == .ok)
            _ = try await client.integrityChallenge(token: other.accessToken)

            let export = try await client.call(.get, "/v1/me/export", token: session.accessToken)
            #expect(export.status == .ok)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: export.body)) as? [String: Any])
            let integrity = try #require((json["data"] as? [String: Any])?["integrity"] as? [String: Any])
            let verdicts = try #require(integrity["kindred_integrity_verdicts"] as? [[String: Any]])
            #expect(verdicts.count == 2)
            #expect(verdicts.allSatisfy { $0["device"] as? String == device.keyID && $0["verdict"] as? String == "passed" })
            let keys = try #require(integrity["kindred_integrity_keys"] as? [[String: Any]])
            #expect(keys.count == 1)
            #expect(keys.first?["counter"] as? Int == 1)
            #expect(keys.first?.keys.contains("receipt") == false)
            let challenges = try #require(integrity["kindred_integrity_challenges"] as? [[String: Any]])
            #expect(challenges.count == 2)
            #expect(challenges.allSatisfy { $0["challenge_hash"] == nil && $0["used_at"] is Int })

            #expect(try await client.call(.delete, "/v1/me", token: session.accessToken).status == .noContent)
            for table in ["kindred_integrity_verdicts", "kindred_integrity_keys", "kindred_integrity_challenges"] {
                #expect(try await Self.count(table, session.user.id, database.sql) == 0, "\(table)")
            }
            // The other account's rows stay.
            #expect(try await Self.count("kindred_integrity_challenges", other.user.id, database.sql) == 1)
        }
    }

    /// Rows of the authorization matrix: another user can neither assert with, register again,
    /// nor lean on someone else's key.
    @Test(arguments: Backend.all)
    func anotherUserCannotUseSomeonesKey(backend: Backend) async throws {
        let device = try IntegrityTestDevice()
        let policy = IntegrityPolicyMiddlewareTests.policy(.refuse)
        try await IntegrityTestApplication.run(on: backend, device: device, policy: policy) { database, clock, client in
            let owner = try await client.anonymous()
            let other = try await client.anonymous()
            #expect(try await client.registerKey(device, token: owner.accessToken).status == .created)
            clock.advance(by: .seconds(1))

            let assertion = try await client.assert(device, counter: 1, token: other.accessToken)
            #expect(assertion.status == .notFound)
            #expect(assertion.errorCode == "integrity_key_not_found")
            let register = try await client.registerKey(device, token: other.accessToken)
            #expect(register.errorCode == "integrity_key_in_use")
            let header: HTTPFields = [IntegrityTestApplication.deviceKeyHeader: device.keyID]
            #expect(try await client.call(.get, "/v1/me", token: other.accessToken, headers: header).errorCode == "integrity_required")
            #expect(try await client.call(.get, "/v1/me", token: owner.accessToken, headers: header).status == .ok)
            // The same person's key does not vouch for another app's account either.
            let soulmate = try await client.anonymous(app: "soulmate")
            let crossApp = try await client.call(
                .post, "/v1/integrity/app-attest/assertions", app: "soulmate", token: soulmate.accessToken,
                json: #"{"keyId":"\#(device.keyID)","assertion":"AA==","challenge":"x"}"#
            )
            #expect(crossApp.errorCode == "integrity_not_configured")
            // The owner's counter did not move.
            let counter = try await database.sql.select().column("counter").from("kindred_integrity_keys").first()
            #expect(try counter?.decode(column: "counter", as: Int64.self) == 0)
        }
    }
}

