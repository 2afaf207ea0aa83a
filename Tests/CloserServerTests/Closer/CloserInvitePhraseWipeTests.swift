@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// Accepting an invite hands the acceptor the couple's key material and the encrypted phrase
/// once, then wipes the phrase from the invite: the database keeps no copy, a second accept
/// gets none, and the inviter's read of the invite shows it used.
@Suite struct CloserInvitePhraseWipeTests {
    @Test(arguments: Backend.all)
    func acceptWipesThePhraseAndReturnsTheKeyMaterialOnce(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { app, client in
            let inviter = try await client.signUp("wipe-a@example.com")
            let acceptor = try await client.signUp("wipe-b@example.com")
            let late = try await client.signUp("wipe-c@example.com")
            let verifier = CloserFixtures.verifier()
            let key = CloserFixtures.base64(120), salt = CloserFixtures.base64(16), phrase = "invite:v1:" + CloserFixtures.base64url(100)
            let material = """
                {"wrappedCoupleKey":"\(key)","kdfSalt":"\(salt)","kdfParams":\(CloserFixtures.json(CloserFixtures.kdfParams)),\
                "encryptedPhrase":"\(phrase)","verifier":"\(verifier)",\
                "inviteKdfSalt":"\(CloserFixtures.base64(16))","inviteKdfParams":\(CloserFixtures.json(CloserFixtures.kdfParams))}
                """
            let created = try await client.call(.post, "/v1/closer/invites", token: inviter.accessToken)
            let code = try #require(client.object(created)["code"] as? String)
            let put = try await client.call(.put, "/v1/closer/invites/\(code)", token: inviter.accessToken, json: material)
            #expect(put.status == .ok, "\(put.text)")
            #expect(put.text.contains(phrase) == false)
            #expect(try await Self.storedPhrase(code, app) == phrase)

            let accept = try await client.call(.post, "/v1/closer/invites/\(code)/accept", token: acceptor.accessToken, json: #"{"verifier":"\#(verifier)"}"#)
            #expect(accept.status == .created, "\(accept.text)")
            let accepted = client.object(accept)
            #expect(accepted["encryptedPhrase"] as? String == phrase)
            let couple = try #require(accepted["couple"] as? [String: Any])
            let coupleID = try #require(couple["id"] as? String)
            #expect(couple["encryptionVersion"] as? Int == 2)
            #expect(couple["wrappedCoupleKey"] as? String == key)
            #expect(couple["kdfSalt"] as? String == salt)
            #expect(couple["kdfParams"] as? String == CloserFixtures.kdfParams)

            // The phrase ciphertext is gone from the invite's row; the row names the couple.
            let row = try #require(
                try await app.database.sql.select().columns("status", "couple_id", "encrypted_phrase").from("closer_invites")
                    .where("code", .equal, code).first()
            )
            #expect(try row.decode(column: "status", as: String.self) == "accepted")
            #expect(try row.decode(column: "couple_id", as: String?.self) == coupleID)
            #expect(try row.decode(column: "encrypted_phrase", as: String?.self) == nil)

            // Nothing returns it again: not the couple, not the inviter's invite, not a second accept.
            let read = try await client.call(.get, "/v1/closer/couple", token: acceptor.accessToken)
            #expect(client.object(read)["wrappedCoupleKey"] as? String == key)
            #expect(read.text.contains(phrase) == false)
            let invite = try await client.call(.get, "/v1/closer/invites/\(code)", token: inviter.accessToken)
            #expect(invite.status == .ok)
            let document = client.object(invite)
            #expect(document["status"] as? String == "accepted")
            #expect(document["coupleId"] as? String == coupleID)
            #expect(document["acceptedAt"] as? String != nil)
            #expect(document["encryptedPhrase"] == nil)
            #expect(Set(document.keys) == ["code", "status", "encryptionVersion", "createdAt", "expiresAt", "acceptedAt", "coupleId"])
            let again = try await client.call(.post, "/v1/closer/invites/\(code)/accept", token: late.accessToken, json: #"{"verifier":"\#(verifier)"}"#)
            #expect(again.status == .conflict)
            #expect(again.text == envelope("invite_used", "this invite has already been accepted"))
            let reupload = try await client.call(.put, "/v1/closer/invites/\(code)", token: inviter.accessToken, json: material)
            #expect(reupload.errorCode == "invite_used")
            #expect(try await Self.storedPhrase(code, app) == nil)
            let acceptorsRead = try await client.call(.get, "/v1/closer/invites/\(code)", token: acceptor.accessToken)
            #expect(acceptorsRead.errorCode == "invite_not_found")
        }
    }

    /// The invite's stored `encrypted_phrase`.
    static func storedPhrase(_ code: String, _ app: TestApplication) async throws -> String? {
        try await app.database.sql.select().column("encrypted_phrase").from("closer_invites").where("code", .equal, code).first()?
            .decode(column: "encrypted_phrase", as: String?.self)
    }
}
