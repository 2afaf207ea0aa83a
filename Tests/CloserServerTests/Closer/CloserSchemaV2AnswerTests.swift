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

/// A schemaVersion 2 answer (`encryptedText` `enc:v1:` under the couple key) created directly on
/// an encrypted couple: stored as sent, withheld from the partner until both answered, with no
/// reveal metadata; malformed or mixed shapes are 400 `invalid_answer`; once only.
@Suite struct CloserSchemaV2AnswerTests {
    @Test(arguments: Backend.all)
    func aSchemaVersionTwoAnswerIsCreatedDirectly(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { app, client in
            let pair = try await client.closerPair("v2-answer")
            let a = pair.inviter, b = pair.acceptor
            let couple = "/v1/closer/couples/\(pair.coupleID)"
            #expect(client.object(try await client.call(.get, couple, token: a.accessToken))["encryptionVersion"] as? Int == 2)
            let date = client.object(try await client.call(.post, "\(couple)/today", token: a.accessToken))["date"] as? String ?? ""
            let mine = "\(couple)/days/\(date)/answers/\(a.user.id)"
            let ciphertext = "enc:v1:" + CloserFixtures.base64(80)

            // Refusals first: each names what is wrong, and none stores anything.
            let refusals: [(String, String)] = [
                (#"{"schemaVersion":2,"encryptedText":"enc:v2:\#(CloserFixtures.base64(80))"}"#, "encryptedText"),
                (#"{"schemaVersion":2}"#, "encryptedText is required"),
                (#"{"schemaVersion":2,"encryptedText":"\#(ciphertext)","text":"hello"}"#, "text is not part of a schemaVersion 2 answer"),
                (#"{"schemaVersion":2,"encryptedText":"\#(ciphertext)","isRevealed":false}"#, "belong to sealed"),
                (#"{"schemaVersion":1,"text":"plain"}"#, "plaintext answers are refused"),
            ]
            for (body, message) in refusals {
                let refused = try await client.call(.put, mine, token: a.accessToken, json: body)
                #expect(refused.status == .badRequest, "\(body)")
                #expect(refused.errorCode == "invalid_answer", "\(body)")
                #expect(refused.text.contains(message), "\(body): \(refused.text)")
            }
            #expect(try await Self.stored(pair.coupleID, app).isEmpty)

            let created = try await client.call(.put, mine, token: a.accessToken, json: #"{"schemaVersion":2,"encryptedText":"\#(ciphertext)"}"#)
            #expect(created.status == .created, "\(created.text)")
            let answer = client.object(created)
            #expect(answer["schemaVersion"] as? Int == 2)
            #expect(answer["encryptedText"] as? String == ciphertext)
            #expect(answer["contentWithheld"] as? Bool == false)
            #expect(answer["answerKeyReleased"] == nil && answer["isRevealed"] == nil && answer["text"] == nil)
            let rows = try await Self.stored(pair.coupleID, app)
            #expect(rows.count == 1)
            #expect(rows.first?.schemaVersion == 2 && rows.first?.encryptedText == ciphertext && rows.first?.text == nil)

            // Once only; the partner sees that it exists, not its content, until answering too.
            let twice = try await client.call(.put, mine, token: a.accessToken, json: #"{"schemaVersion":2,"encryptedText":"\#(ciphertext)"}"#)
            #expect(twice.status == .conflict)
            #expect(twice.errorCode == "answer_exists")
            let seen = client.object(try await client.call(.get, mine, token: b.accessToken))
            #expect(seen["contentWithheld"] as? Bool == true)
            #expect(seen["encryptedText"] == nil)
            // Reveal metadata belongs to sealed answers only.
            let flag = try await client.call(.patch, mine, token: a.accessToken, json: #"{"isRevealed":true}"#)
            #expect(flag.status == .badRequest)
            #expect(flag.errorCode == "invalid_answer")

            let theirs = "enc:v1:" + CloserFixtures.base64(90)
            let second = try await client.call(
                .put, "\(couple)/days/\(date)/answers/\(b.user.id)", token: b.accessToken, json: #"{"schemaVersion":2,"encryptedText":"\#(theirs)"}"#
            )
            #expect(second.status == .created)
            let opened = client.object(try await client.call(.get, mine, token: b.accessToken))
            #expect(opened["contentWithheld"] as? Bool == false)
            #expect(opened["encryptedText"] as? String == ciphertext)
            // The second answer completes the date.
            #expect(client.object(try await client.call(.get, couple, token: a.accessToken))["streakCount"] as? Int == 1)
        }
    }

    struct Stored: Sendable {
        var schemaVersion: Int
        var text: String?
        var encryptedText: String?
    }

    static func stored(_ coupleID: String, _ app: TestApplication) async throws -> [Stored] {
        try await app.database.sql.select().columns("schema_version", "text", "encrypted_text").from("closer_answers")
            .where("couple_id", .equal, coupleID).all().map {
                Stored(
                    schemaVersion: try $0.decode(column: "schema_version", as: Int.self), text: try $0.decode(column: "text", as: String?.self),
                    encryptedText: try $0.decode(column: "encrypted_text", as: String?.self)
                )
            }
    }
}
