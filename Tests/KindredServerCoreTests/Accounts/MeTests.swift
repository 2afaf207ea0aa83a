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

/// `GET/PATCH/DELETE /v1/me` and `GET /v1/me/export`.
@Suite struct MeTests {
    @Test(arguments: Backend.all)
    func patchSetsAndClearsProfileFields(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let session = try await client.signUp("ayse@example.com")
            let set = try await client.call(
                .patch, "/v1/me", token: session.accessToken,
                json: #"{"displayName":"Ayşe","firstName":"Ayşe","lastName":"Yılmaz","photoURL":"https://cdn.example.com/a.jpg","timeZone":"Europe/Istanbul","locale":"tr-TR"}"#
            )
            #expect(set.status == .ok, "\(set.text)")
            let user = try set.decode(UserBody.self)
            #expect(user.displayName == "Ayşe")
            #expect(user.lastName == "Yılmaz")
            #expect(user.photoURL == "https://cdn.example.com/a.jpg")
            #expect(user.timeZone == "Europe/Istanbul")
            #expect(user.locale == "tr-TR")

            // Absent fields are kept; an empty string clears.
            let cleared = try await client.call(.patch, "/v1/me", token: session.accessToken, json: #"{"photoURL":"","locale":""}"#)
            let after = try cleared.decode(UserBody.self)
            #expect(after.photoURL == nil && after.locale == nil)
            #expect(after.displayName == "Ayşe" && after.timeZone == "Europe/Istanbul")
            #expect(try await client.call(.get, "/v1/me", token: session.accessToken).decode(UserBody.self) == after)
        }
    }

    @Test(arguments: [
        (#"{"timeZone":"Mars/Olympus"}"#, "invalid_profile"),
        (#"{"timeZone":"EST5EDT-nope"}"#, "invalid_profile"),
        (#"{"locale":"english please"}"#, "invalid_profile"),
        (#"{"photoURL":"http://insecure.example.com/a.jpg"}"#, "invalid_profile"),
        (#"{"photoURL":"javascript:alert(1)"}"#, "invalid_profile"),
        (#"{"displayName":"\#(String(repeating: "n", count: 101))"}"#, "invalid_profile"),
        (#"{"displayName":"bell\u0007"}"#, "invalid_profile"),
        (#"{"nickname":"unknown field"}"#, "bad_request"),
        (#"{"displayName":42}"#, "bad_request"),
    ])
    func badProfileUpdatesAreRefusedAndChangeNothing(body: String, code: String) async throws {
        try await TestApplication.run(on: .sqlite) { _, client in
            let session = try await client.anonymous()
            let response = try await client.call(.patch, "/v1/me", token: session.accessToken, json: body)
            #expect(response.status == .badRequest, "\(response.text)")
            #expect(response.errorCode == code, "\(response.text)")
            #expect(try await client.call(.get, "/v1/me", token: session.accessToken).decode(UserBody.self) == session.user)
        }
    }

    @Test(arguments: Backend.all)
    func deleteRemovesEveryRegisteredRowOfTheAccountOnly(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { application, client in
            let doomed = try await client.signUp("doomed@example.com")
            _ = try await client.refresh(doomed.refreshToken)
            let bystander = try await client.signUp("bystander@example.com")
            let delete = try await client.call(.delete, "/v1/me", token: doomed.accessToken)
            #expect(delete.status == .noContent)
            #expect(try await client.call(.get, "/v1/me", token: doomed.accessToken).errorCode == "session_revoked")
            #expect(try await client.logIn("doomed@example.com").errorCode == "invalid_credentials")

            let sql = application.database.sql
            // Each registered table by its own user column (a couple is registered under both members').
            let tables = UserDataRegistry.server(domains: ServerDomains.all()).entries.flatMap(\.tables).map { ($0.name, $0.userColumn) } + [("kindred_users", "id")]
            for (table, column) in tables {
                let left = try await sql.select().column(SQLLiteral.all).from(table)
                    .where(SQLIdentifier(column), .equal, SQLBind(doomed.user.id)).all()
                #expect(left.isEmpty, "\(table) still holds rows of the deleted account")
            }
            #expect(try await client.call(.get, "/v1/me", token: bystander.accessToken).status == .ok)
            // The address is free again.
            _ = try await client.signUp("doomed@example.com")
        }
    }

    @Test(arguments: Backend.all)
    func exportHoldsTheAccountsRowsWithoutSecrets(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let session = try await client.signUp("export@example.com")
            _ = try await client.call(.patch, "/v1/me", token: session.accessToken, json: #"{"timeZone":"Asia/Tokyo"}"#)
            let response = try await client.call(.get, "/v1/me/export", token: session.accessToken)
            #expect(response.status == .ok)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            let user = try #require(json["user"] as? [String: Any])
            #expect(user["id"] as? String == session.user.id)
            #expect(user["timeZone"] as? String == "Asia/Tokyo")
            #expect(json["exportedAt"] is String)
            let accounts = try #require((json["data"] as? [String: Any])?["accounts"] as? [String: Any])
            let credentials = try #require(accounts["kindred_credentials"] as? [[String: Any]])
            #expect(credentials.count == 1)
            #expect(credentials.first?["subject"] as? String == "export@example.com")
            #expect(credentials.first?["provider"] as? String == "password")
            #expect(credentials.first?.keys.contains("password_hash") == false)
            let sessions = try #require(accounts["kindred_sessions"] as? [[String: Any]])
            #expect(sessions.count == 1)
            let tokens = try #require(accounts["kindred_refresh_tokens"] as? [[String: Any]])
            #expect(tokens.count == 1)
            #expect(tokens.first?.keys.contains("token_hash") == false)
            #expect(!response.text.contains("argon2id"))
            #expect(!response.text.contains(session.refreshToken))
        }
    }
}
