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

/// The seed's legacy path: with `closer.legacyClients` on, a couple created at encryption
/// version 0 (plaintext answers) walks the migration v0 → v1 → v2, each author rewriting each of
/// their own plaintext answers once into `enc:v1:`; with the option off no version-0 couple is made.
@Suite struct CloserLegacyMigrationTests {
    /// Closer's settings with legacy clients allowed.
    static var legacy: CloserSettings {
        var settings = CloserSettings()
        settings.legacyClients = true
        return settings
    }

    static let wrappedKey = CloserFixtures.base64(100)
    static let kdfSalt = CloserFixtures.base64(16)
    /// The recovery wrap the migration uploads.
    static var wrapJSON: String {
        #"{"wrappedCoupleKey":"\#(wrappedKey)","kdfSalt":"\#(kdfSalt)","kdfParams":\#(CloserFixtures.json(CloserFixtures.kdfParams))}"#
    }

    @Test(arguments: Backend.all)
    func aVersion0CoupleMigratesToVersion2(backend: Backend) async throws {
        try await TestApplication.run(on: backend, closer: Self.legacy) { app, client in
            let pair = try await client.legacyPair("legacy")
            let a = pair.inviter, b = pair.acceptor
            let aID = a.user.id, bID = b.user.id
            let couplePath = "/v1/closer/couples/\(pair.coupleID)"
            let start = client.object(try await client.call(.get, couplePath, token: b.accessToken))
            #expect(start["encryptionVersion"] as? Int == 0)
            #expect(start["wrappedCoupleKey"] == nil)

            // Two answered dates and a spare one: today's on demand, the others as the daily job writes them.
            let today = client.object(try await client.call(.post, "\(couplePath)/today", token: a.accessToken))
            let second = try #require(today["date"] as? String), question = try #require(today["questionId"] as? String)
            let first = CloserRhythmTests.date(second, plus: -1), spare = CloserRhythmTests.date(second, plus: -2)
            let expires = Int64(app.clock.now().timeIntervalSince1970 * 1000) + 86_400_000
            for date in [first, spare] {
                try await app.database.sql.insert(into: "closer_days")
                    .columns("couple_id", "date_key", "question_id", "assigned_at", "expires_at")
                    .values(SQLBind(pair.coupleID), SQLBind(date), SQLBind(question), SQLBind(expires - 86_400_000), SQLBind(expires))
                    .run()
            }
            func path(_ date: String, _ userID: String) -> String { "\(couplePath)/days/\(date)/answers/\(userID)" }
            for date in [first, second] {
                for member in [a, b] {
                    let text = "plain \(member.user.id.prefix(4)) \(date)"
                    let put = try await client.call(.put, path(date, member.user.id), token: member.accessToken, json: #"{"schemaVersion":1,"text":"\#(text)"}"#)
                    #expect(put.status == .created, "\(put.text)")
                    #expect(client.object(put)["text"] as? String == text)
                }
            }

            // At version 0 nothing of the migration's later steps is allowed: no skipping to v2.
            let skip = try await client.call(.post, "\(couplePath)/encryption-migration/complete", token: a.accessToken)
            #expect(skip.status == .conflict)
            #expect(skip.text == envelope("encryption_version_conflict", "no encryption migration is in progress"))
            let early = try await client.call(.put, "\(path(first, aID))/encrypted", token: a.accessToken, json: #"{"encryptedText":"enc:v1:\#(CloserFixtures.base64(60))"}"#)
            #expect(early.status == .conflict)
            #expect(early.errorCode == "encryption_version_conflict")
            let rewrap = try await client.call(.put, "\(couplePath)/recovery-wrap", token: a.accessToken, json: Self.wrapJSON)
            #expect(rewrap.status == .conflict)
            #expect(rewrap.text == envelope("encryption_version_conflict", "this couple has no couple key yet; start the encryption migration"))
            let patched = try await client.call(.patch, "\(couplePath)/settings", token: a.accessToken, json: #"{"encryptionVersion":2}"#)
            #expect(patched.status == .badRequest)
            #expect(try await Self.stored(pair.coupleID, app).version == 0)

            // v0 → v1: either member uploads the wrap.
            let started = try await client.call(.post, "\(couplePath)/encryption-migration", token: b.accessToken, json: Self.wrapJSON)
            #expect(started.status == .ok, "\(started.text)")
            let v1 = client.object(started)
            #expect(v1["encryptionVersion"] as? Int == 1)
            #expect((v1["encryptionMigrationUsers"] as? [String: Bool]) == [:])
            #expect(v1["wrappedCoupleKey"] as? String == Self.wrappedKey)
            #expect(v1["kdfSalt"] as? String == Self.kdfSalt)
            #expect(v1["kdfParams"] as? String == CloserFixtures.kdfParams)
            let atV1 = try await Self.stored(pair.coupleID, app)
            #expect(atV1.version == 1)
            #expect(atV1.users == [:])
            #expect(atV1.wrappedCoupleKey == Self.wrappedKey)

            // At version 1 new plaintext is refused; each author rewrites each own plaintext answer once.
            let plain = try await client.call(.put, path(spare, bID), token: b.accessToken, json: #"{"schemaVersion":1,"text":"late"}"#)
            #expect(plain.text == envelope("invalid_answer", "this couple is end-to-end encrypted: plaintext answers are refused"))
            var rewritten: [String: String] = [:]
            for (member, date) in [(a, first), (a, second), (b, first)] {
                let encrypted = "enc:v1:" + CloserFixtures.base64(60)
                let put = try await client.call(.put, "\(path(date, member.user.id))/encrypted", token: member.accessToken, json: #"{"encryptedText":"\#(encrypted)"}"#)
                #expect(put.status == .ok, "\(put.text)")
                let answer = client.object(put)
                #expect(answer["schemaVersion"] as? Int == 2)
                #expect(answer["encryptedText"] as? String == encrypted)
                #expect(answer["text"] == nil)
                #expect(answer["migratedAt"] as? String != nil)
                rewritten["\(member.user.id) \(date)"] = encrypted
            }
            let again = try await client.call(.put, "\(path(first, aID))/encrypted", token: a.accessToken, json: #"{"encryptedText":"enc:v1:\#(CloserFixtures.base64(60))"}"#)
            #expect(again.status == .conflict)
            #expect(again.text == envelope("answer_already_migrated", "this answer was already rewritten"))
            let partners = try await client.call(.put, "\(path(second, bID))/encrypted", token: a.accessToken, json: #"{"encryptedText":"enc:v1:\#(CloserFixtures.base64(60))"}"#)
            #expect(partners.status == .forbidden)
            #expect(partners.text == envelope("not_owner", "only its author may write this"))
            let malformed = try await client.call(.put, "\(path(second, bID))/encrypted", token: b.accessToken, json: #"{"encryptedText":"still plaintext"}"#)
            #expect(malformed.status == .badRequest)
            #expect(malformed.errorCode == "invalid_answer")
            let seen = client.object(try await client.call(.get, path(first, aID), token: b.accessToken))
            #expect(seen["encryptedText"] as? String == rewritten["\(aID) \(first)"])

            // v1 → v2: each member completes its own part; both done moves the couple on.
            let aDone = client.object(try await client.call(.post, "\(couplePath)/encryption-migration/complete", token: a.accessToken))
            #expect(aDone["encryptionVersion"] as? Int == 1)
            #expect((aDone["encryptionMigrationUsers"] as? [String: Bool]) == [aID: true])
            let aTwice = client.object(try await client.call(.post, "\(couplePath)/encryption-migration/complete", token: a.accessToken))
            #expect(aTwice["encryptionVersion"] as? Int == 1)
            #expect((aTwice["encryptionMigrationUsers"] as? [String: Bool]) == [aID: true])
            let bDone = client.object(try await client.call(.post, "\(couplePath)/encryption-migration/complete", token: b.accessToken))
            #expect(bDone["encryptionVersion"] as? Int == 2)
            #expect((bDone["encryptionMigrationUsers"] as? [String: Bool]) == [aID: true, bID: true])

            // At version 2 there is no way back and no more rewriting; the recovery wrap may change.
            let back = try await client.call(.post, "\(couplePath)/encryption-migration", token: a.accessToken, json: Self.wrapJSON)
            #expect(back.status == .conflict)
            #expect(back.text == envelope("encryption_version_conflict", "this couple is already fully encrypted"))
            let over = try await client.call(.post, "\(couplePath)/encryption-migration/complete", token: b.accessToken)
            #expect(over.text == envelope("encryption_version_conflict", "no encryption migration is in progress"))
            let late = try await client.call(.put, "\(path(second, bID))/encrypted", token: b.accessToken, json: #"{"encryptedText":"enc:v1:\#(CloserFixtures.base64(60))"}"#)
            #expect(late.text == envelope("encryption_version_conflict", "no encryption migration is in progress"))
            let newKey = CloserFixtures.base64(100)
            let newWrap = #"{"wrappedCoupleKey":"\#(newKey)","kdfSalt":"\#(Self.kdfSalt)","kdfParams":\#(CloserFixtures.json(CloserFixtures.kdfParams))}"#
            let changed = try await client.call(.put, "\(couplePath)/recovery-wrap", token: b.accessToken, json: newWrap)
            #expect(changed.status == .ok)
            #expect(client.object(changed)["wrappedCoupleKey"] as? String == newKey)

            // What is stored.
            let atV2 = try await Self.stored(pair.coupleID, app)
            #expect(atV2.version == 2)
            #expect(atV2.users == [aID: true, bID: true])
            #expect(atV2.wrappedCoupleKey == newKey)
            let rows = try await app.database.sql.select()
                .columns("user_id", "date_key", "schema_version", "text", "encrypted_text", "migrated_at").from("closer_answers")
                .where("couple_id", .equal, pair.coupleID).all()
            var stored: [String: String] = [:]
            for row in rows {
                let key = "\(try row.decode(column: "user_id", as: String.self)) \(try row.decode(column: "date_key", as: String.self))"
                let version = try row.decode(column: "schema_version", as: Int.self)
                let text = try row.decode(column: "text", as: String?.self)
                let encrypted = try row.decode(column: "encrypted_text", as: String?.self)
                let migrated = try row.decode(column: "migrated_at", as: Int64?.self)
                stored[key] = "\(version) \(text ?? "-") \(encrypted ?? "-") \(migrated == nil ? "-" : "migrated")"
            }
            #expect(stored == [
                "\(aID) \(first)": "2 - \(rewritten["\(aID) \(first)"] ?? "") migrated",
                "\(aID) \(second)": "2 - \(rewritten["\(aID) \(second)"] ?? "") migrated",
                "\(bID) \(first)": "2 - \(rewritten["\(bID) \(first)"] ?? "") migrated",
                "\(bID) \(second)": "1 plain \(bID.prefix(4)) \(second) - -",
            ])
        }
    }

    @Test(arguments: Backend.all)
    func withoutLegacyClientsNoVersion0InviteIsMade(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { app, client in
            let inviter = try await client.signUp("nolegacy-a@example.com")
            let acceptor = try await client.signUp("nolegacy-b@example.com")
            let created = try await client.call(.post, "/v1/closer/invites", token: inviter.accessToken)
            let code = try #require(client.object(created)["code"] as? String)
            let empty = try await client.call(.put, "/v1/closer/invites/\(code)", token: inviter.accessToken, json: "{}")
            #expect(empty.status == .badRequest)
            #expect(empty.text == envelope("invalid_invite", "the key material is required (this server does not accept unencrypted couples)"))
            let invite = client.object(try await client.call(.get, "/v1/closer/invites/\(code)", token: inviter.accessToken))
            #expect(invite["status"] as? String == "pending")
            #expect(invite["encryptionVersion"] == nil)
            let accept = try await client.call(.post, "/v1/closer/invites/\(code)/accept", token: acceptor.accessToken, json: "{}")
            #expect(accept.status == .notFound)
            #expect(accept.errorCode == "invite_not_found")
            #expect(try await Self.count("closer_couples", app) == 0)
        }
    }

    @Test(arguments: Backend.all)
    func aVersion0InviteIsRefusedOnceLegacyClientsAreOff(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            // Made while the operator allowed legacy clients…
            let before = try await TestApplication(database: database, closer: Self.legacy)
            let code = try await before.app.test(.router) { client in
                let inviter = try await client.signUp("turnedoff-a@example.com")
                _ = try await client.signUp("turnedoff-b@example.com")
                let created = try await client.call(.post, "/v1/closer/invites", token: inviter.accessToken)
                let code = try #require(client.object(created)["code"] as? String)
                let put = try await client.call(.put, "/v1/closer/invites/\(code)", token: inviter.accessToken, json: "{}")
                #expect(client.object(put)["encryptionVersion"] as? Int == 0)
                return code
            }
            // …and accepted after a restart without them.
            let after = try await TestApplication(database: database)
            try await after.app.test(.router) { client in
                let session = try await client.logIn("turnedoff-b@example.com").decode(SessionBody.self)
                let accept = try await client.call(.post, "/v1/closer/invites/\(code)/accept", token: session.accessToken, json: "{}")
                #expect(accept.status == .badRequest)
                #expect(accept.text == envelope("invalid_invite", "this server no longer accepts unencrypted couples"))
                #expect(try await Self.count("closer_couples", after) == 0)
                #expect(try await Self.count("closer_members", after) == 0)
            }
        }
    }

    /// The couple's stored encryption version, migration map and wrapped key.
    static func stored(_ coupleID: String, _ app: TestApplication) async throws -> (version: Int, users: [String: Bool], wrappedCoupleKey: String?) {
        let row = try #require(
            try await app.database.sql.select().columns("encryption_version", "migration_users", "wrapped_couple_key")
                .from("closer_couples").where("id", .equal, coupleID).first()
        )
        let users = try row.decode(column: "migration_users", as: String.self)
        return (
            try row.decode(column: "encryption_version", as: Int.self),
            try JSONDecoder().decode([String: Bool].self, from: Data(users.utf8)),
            try row.decode(column: "wrapped_couple_key", as: String?.self)
        )
    }

    /// The number of rows of `table`.
    static func count(_ table: String, _ app: TestApplication) async throws -> Int? {
        try await app.database.sql.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table)").first()?.decode(column: "n", as: Int.self)
    }
}

extension TestClientProtocol {
    /// Signs up two accounts and pairs them through a version-0 invite (no key material).
    func legacyPair(_ prefix: String) async throws -> CloserPair {
        let inviter = try await signUp("\(prefix)-a@example.com")
        let acceptor = try await signUp("\(prefix)-b@example.com")
        let created = try await call(.post, "/v1/closer/invites", token: inviter.accessToken)
        let code = try #require(object(created)["code"] as? String)
        let put = try await call(.put, "/v1/closer/invites/\(code)", token: inviter.accessToken, json: "{}")
        #expect(object(put)["status"] as? String == "open")
        #expect(object(put)["encryptionVersion"] as? Int == 0)
        let accept = try await call(.post, "/v1/closer/invites/\(code)/accept", token: acceptor.accessToken, json: "{}")
        #expect(accept.status == .created, "\(accept.text)")
        let body = object(accept)
        #expect(body["encryptedPhrase"] == nil)
        let couple = try #require(body["couple"] as? [String: Any])
        return CloserPair(inviter: inviter, acceptor: acceptor, coupleID: couple["id"] as? String ?? "")
    }
}
