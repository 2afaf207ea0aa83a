import CloserKit
import Foundation
import GRDB
import KindredClient
import KindredCrypto
import KindredStore
import KindredTestSupport
import Testing

/// Two phones pair, answer, reveal and write a thread through a live `kindred serve` (SQLite and
/// PostgreSQL); the server's files (or `pg_dump`) and log never contain a plaintext answer or
/// message, the phrase or the invite secret; a third
/// phone is refused everywhere; a tampering server is caught; the 11th wrong accept is 429.
@Suite(.serialized) struct CloserEndToEndTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    func phone(_ name: String, _ server: LiveServer) -> CloserPhone {
        CloserPhone(profile: folder.url.appendingPathComponent(name).path, server: server.url)
    }

    /// Pairs alice (inviter) and bob; returns the share string.
    func pair(_ alice: CloserPhone, _ bob: CloserPhone) throws -> String {
        try alice.signUp("alice")
        try bob.signUp("bob")
        let invite = try alice.succeed(["invite"])
        let share = try #require(invite.split(separator: "\n").last.map(String.init))
        #expect(share.wholeMatch(of: /[0-9A-Z]{6}-[0-9A-Z]{5}-[0-9A-Z]{5}-[0-9A-Z]{4}/) != nil)
        #expect(try bob.succeed(["accept", share]).hasPrefix("paired: couple "))
        return share
    }

    /// The full flow on `backend`, then the server's storage and log scanned for every secret:
    /// the SQLite file and its `-wal`, or a `pg_dump` of the PostgreSQL database.
    @Test(.timeLimit(.minutes(6)), arguments: Backend.all)
    func twoPhonesAnswerRevealAndWriteAThreadAndTheServerSeesNoSecret(backend: Backend) async throws {
        switch backend {
        case .sqlite:
            let server = try await LiveServer()
            let (secrets, code) = try await fullFlow(server, in: "sqlite")
            let database = try #require(server.databaseURL.split(separator: ":", maxSplits: 1).last.map(String.init))
            let stopped = await server.stop()
            #expect(stopped.status == 0)
            let files = [database, database + "-wal"].compactMap { try? Data(contentsOf: URL(fileURLWithPath: $0)) }
            #expect(!files.isEmpty)
            expectNoSecret(secrets, in: files + [Data(stopped.stderr.utf8)])
            expectNoInviteCode(code, in: stopped.stderr)
        case .postgresql:
            try await TestDatabases.with(.postgresql) { database in
                guard case .postgres(let pg) = database.configuration.url else { throw PostgresDump.Failure(description: "not a PostgreSQL database") }
                let url = "postgres://\(pg.username)\(pg.password.map { ":\($0)" } ?? "")@\(pg.host):\(pg.port)/\(pg.database)"
                let server = try await LiveServer(databaseURL: url)
                let secrets: [String], code: String
                do {
                    (secrets, code) = try await fullFlow(server, in: "postgresql")
                } catch {
                    _ = await server.stop()
                    throw error
                }
                let stopped = await server.stop()
                #expect(stopped.status == 0)
                expectNoInviteCode(code, in: stopped.stderr)
                guard let dump = try PostgresDump.dump(url) else { return }  // no pg_dump here (a failure under CI)
                #expect(dump.count > 10_000)
                expectNoSecret(secrets, in: [dump, Data(stopped.stderr.utf8)])
            }
        }
    }

    /// Pairs alice and bob (and alice's tablet), has both answer and reveal, write and open a
    /// thread, changes the phrase, and checks a third profile is refused.
    /// - Returns: every secret of the flow (answers, thread messages, phrases, share string, invite secret)
    ///   and the invite code.
    func fullFlow(_ server: LiveServer, in subfolder: String) async throws -> (secrets: [String], inviteCode: String) {
        let phone = { (name: String) in self.phone("\(subfolder)/\(name)", server) }
        let alice = phone("alice"), bob = phone("bob"), carol = phone("carol")
        let share = try pair(alice, bob)

        // A second device of alice's: log in, recover with the phrase (a wrong one is refused).
        let phrase = try alice.succeed(["phrase", "show"])
        #expect(try bob.succeed(["phrase", "show"]) == phrase)
        #expect(try RecoveryPhrase(parsing: phrase).words.count == 10)
        let tablet = phone("alice-tablet")
        try logIn(tablet, as: "alice")
        #expect(try tablet.run(["recover", "--phrase", "acorn zipper banana garden castle castle zebra apple tiger robin"]).stderr
            == "Error: recovery phrase: does not unlock this couple key\n")
        #expect(try tablet.succeed(["recover", "--phrase", phrase]) == "recovered the couple key on this device\n")
        #expect(try tablet.succeed(["phrase", "show"]) == phrase)

        let today = try alice.succeed(["today"])
        #expect(today.hasSuffix("state: unanswered\n"))
        let aliceAnswer = "Lanternfish picnic under the aqueduct", bobAnswer = "Quokka karaoke at the lighthouse"
        #expect(try alice.succeed(["answer", aliceAnswer]).hasSuffix("state: waiting for partner\n"))
        #expect(try bob.succeed(["answer", bobAnswer]).hasSuffix("state: partner answered\n"))
        #expect(try alice.succeed(["reveal"]).hasSuffix("state: releasing keys\n"))
        let bobReveal = try bob.succeed(["reveal"])
        #expect(bobReveal.hasSuffix("state: revealed\nyou: \(bobAnswer)\npartner: \(aliceAnswer)\n"))
        let aliceReveal = try alice.succeed(["reveal"])
        #expect(aliceReveal.hasSuffix("state: revealed\nyou: \(aliceAnswer)\npartner: \(bobAnswer)\n"))
        #expect(try alice.succeed(["history"]).contains("partner: \(bobAnswer)\n"))

        // The tablet (registered before the answers) opens both: its own answer through the key
        // alice's phone released to it, bob's through bob's keybox for it.
        #expect(try tablet.succeed(["reveal"]).hasSuffix("state: revealed\nyou: \(aliceAnswer)\npartner: \(bobAnswer)\n"))

        // A thread on today's question: each posts one sealed message; each reads the other's.
        let aliceNote = "Saffron kites above the salt marsh", bobNote = "Velvet thunder over the plum orchard"
        #expect(try alice.succeed(["thread", "post", "today", aliceNote]).hasSuffix("state: waiting for partner\n"))
        #expect(try bob.succeed(["thread", "show", "today"]).hasSuffix("state: unanswered\n"))
        #expect(try bob.succeed(["thread", "post", "today", bobNote]).hasSuffix("state: partner answered\n"))
        #expect(try bob.run(["thread", "post", "today", "again"]).stderr == "Error: \(CloserKitError.alreadyPosted.description)\n")
        #expect(try alice.succeed(["thread", "show", "today"]).hasSuffix("state: releasing keys\n"))
        #expect(try bob.succeed(["thread", "show", "today"]).hasSuffix("state: revealed\nyou: \(bobNote)\npartner: \(aliceNote)\n"))
        #expect(try alice.succeed(["thread", "show", "today"]).hasSuffix("state: revealed\nyou: \(aliceNote)\npartner: \(bobNote)\n"))
        #expect(try tablet.succeed(["thread", "show", "today"]).hasSuffix("state: revealed\nyou: \(aliceNote)\npartner: \(bobNote)\n"))

        // A phrase change on the tablet retires the old phrase everywhere.
        let changed = try tablet.succeed(["phrase", "change"])
        #expect(changed != phrase)
        #expect(try alice.run(["phrase", "show"]).stderr == "Error: \(CloserKitError.stalePhrase.description)\n")
        let laptop = phone("alice-laptop")
        try logIn(laptop, as: "alice")
        #expect(try laptop.run(["recover", "--phrase", phrase]).stderr == "Error: recovery phrase: does not unlock this couple key\n")
        #expect(try laptop.succeed(["recover", "--phrase", changed]) == "recovered the couple key on this device\n")

        // A third phone: no couple of its own, and the couple's routes do not exist for it.
        try carol.signUp("carol")
        let carolAccept = try carol.run(["accept", share])
        #expect(carolAccept.status != 0)
        #expect(carolAccept.stderr.hasPrefix("Error: invite_used (HTTP 409): "))
        #expect(try carol.run(["today"]).stderr == "Error: not in a couple: create or accept an invite first\n")
        try await expectStrangerRefused(carol: carol, alice: alice, server: server)

        let secret = String(share.split(separator: "-", maxSplits: 1)[1])
        let secrets = [aliceAnswer, bobAnswer, aliceNote, bobNote, phrase.trimmingCharacters(in: .newlines),
                       changed.trimmingCharacters(in: .newlines), share, secret, secret.replacingOccurrences(of: "-", with: "")]
        return (secrets, String(share.prefix(6)))
    }

    /// The invite code is stored with the couple (it is not secret from the database), but it
    /// is a credential in transit and never appears in the server's log, which runs at `info`
    /// and has one line per request (the invite routes carry the code in their path).
    func expectNoInviteCode(_ code: String, in log: String) {
        #expect(log.contains("route=/v1/closer/invites/{code}/accept"), "the server log has no invite request lines to scan")
        #expect(!log.contains(code), "found the invite code \(code) in the server log")
    }

    /// None of `secrets` occurs in any of `blobs`, and the sealed answers are there (the scan reads real data).
    func expectNoSecret(_ secrets: [String], in blobs: [Data]) {
        for secret in secrets {
            #expect(!blobs.contains { $0.range(of: Data(secret.utf8)) != nil }, "found a secret on the server: \(secret.prefix(6))…")
        }
        #expect(blobs.contains { $0.range(of: Data("sealed:v1:".utf8)) != nil })
    }

    /// Signs a profile in to an existing account (`kindred account login`).
    func logIn(_ phone: CloserPhone, as name: String) throws {
        let result = try ChildProcess.run(ChildProcess.kindredExecutable.path,
                                          ["account", "login", "--app", "closer", "--email", "\(name)@example.com", "--password-stdin",
                                           "--profile", phone.profile, "--server", phone.server.absoluteString],
                                          input: Array("correct horse \(name)\n".utf8), environment: CloserPhone.environment)
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// Carol's session asks for alice's couple, day, answers, keys and devices: 404 each time.
    func expectStrangerRefused(carol: CloserPhone, alice: CloserPhone, server: LiveServer) async throws {
        let aliceSession = KindredSession(serverURL: server.url, app: .closer, store: FileTokenStore(profileDirectory: URL(fileURLWithPath: alice.profile)))
        let carolSession = KindredSession(serverURL: server.url, app: .closer, store: FileTokenStore(profileDirectory: URL(fileURLWithPath: carol.profile)))
        let couple = try await aliceSession.authorizedCall(with: aliceSession.closerClient) { try await $0.getMyCloserCouple(headers: .init(xKindredApp: .closer)) }
        let coupleId = try couple.ok.body.json.id
        let aliceId = try #require(try await aliceSession.storedSession()?.userID)
        let client = carolSession
        let statuses: [Int] = [
            try await status { try await client.authorizedCall(with: client.closerClient) { try await $0.getCloserCouple(path: .init(coupleId: coupleId), headers: .init(xKindredApp: .closer)) } },
            try await status { try await client.authorizedCall(with: client.closerClient) { try await $0.getCloserToday(path: .init(coupleId: coupleId), headers: .init(xKindredApp: .closer)) } },
            try await status { try await client.authorizedCall(with: client.closerClient) { try await $0.listCloserHistory(path: .init(coupleId: coupleId), headers: .init(xKindredApp: .closer)) } },
            try await status { try await client.authorizedCall(with: client.closerClient) { try await $0.listCloserDeviceKeys(path: .init(userId: aliceId), headers: .init(xKindredApp: .closer)) } },
            try await status { try await client.authorizedCall(with: client.closerClient) { try await $0.leaveCloserCouple(path: .init(coupleId: coupleId), headers: .init(xKindredApp: .closer)) } },
        ]
        #expect(statuses == [404, 404, 404, 404, 404])
    }

    /// The HTTP status of a generated-client output (its case).
    func status(_ call: () async throws -> some Sendable) async throws -> Int {
        let output = try await call()
        let label = Mirror(reflecting: output).children.first?.label ?? ""
        let known = ["ok": 200, "created": 201, "noContent": 204, "badRequest": 400, "forbidden": 403, "notFound": 404, "conflict": 409]
        if let status = known[label] { return status }
        if let value = Mirror(reflecting: output).children.first?.value, let status = Mirror(reflecting: value).children.first?.value as? Int {
            return status
        }
        return -1
    }

    @Test(.timeLimit(.minutes(5)))
    func aServerThatRewritesPayloadCommitmentAndKeyboxIsReportedAsTampered() async throws {
        let server = try await LiveServer()
        let alice = phone("alice", server), bob = phone("bob", server)
        _ = try pair(alice, bob)
        _ = try alice.succeed(["answer", "the real answer of alice"])
        _ = try bob.succeed(["answer", "the real answer of bob"])
        _ = try alice.succeed(["reveal"])  // alice releases her key
        _ = try bob.succeed(["reveal"])    // bob opens alice's and releases his

        // The server forges bob's answer for alice: a new one-time key, payload, commitment,
        // and a keybox to alice's published key. It has no couple key for the commitment seal.
        let path = try #require(server.databaseURL.split(separator: ":", maxSplits: 1).last.map(String.init))
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let database = try DatabaseQueue(path: path, configuration: configuration)
        try await database.write { db in
            let row = try #require(try Row.fetchOne(db, sql: """
                SELECT a.couple_id, a.question_id, a.user_id, r.recipient_id, r.recipient_device_id, k.public_key
                FROM closer_answers a JOIN closer_release_keys r ON r.couple_id = a.couple_id AND r.user_id = a.user_id
                JOIN closer_device_keys k ON k.device_id = r.recipient_device_id AND k.user_id = r.recipient_id
                JOIN kindred_users u ON u.id = a.user_id WHERE u.display_name = 'bob'
                """))
            let coupleId: String = row[0], questionId: String = row[1], bobId: String = row[2], aliceId: String = row[3]
            let context = try SealedAnswerContext(coupleId: coupleId, questionId: questionId, userId: bobId)
            let forged = try SealedAnswer.seal(answer: "forged by the server", context: context, coupleKeyset: .generateAES256GCM())
            let boxContext = try KeyboxContext(coupleId: coupleId, questionId: questionId, senderUserId: bobId, recipientUserId: aliceId)
            let keybox = try Keybox.wrap(oneTimeKey: forged.oneTimeKey, recipientPublicKeyset: CloserPublicKey.decode(row[5]), context: boxContext)
            try db.execute(sql: "UPDATE closer_answers SET encrypted_payload = ?, commitment_hash = ? WHERE user_id = ?",
                           arguments: [forged.payload, forged.commitment, bobId])
            try db.execute(sql: "UPDATE closer_release_keys SET encrypted_answer_key = ? WHERE user_id = ? AND recipient_id = ?",
                           arguments: [keybox, bobId, aliceId])
        }
        let reveal = try alice.run(["reveal"])
        #expect(reveal.status == 1)
        #expect(reveal.stderr == "Error: tampered: the partner's answer does not match its commitment or commitment seal\n")

        _ = try alice.succeed(["thread", "post", "today", "the real message of alice"])
        _ = try bob.succeed(["thread", "post", "today", "the real message of bob"])
        _ = try alice.succeed(["thread", "show", "today"])  // alice releases her message key
        _ = try bob.succeed(["thread", "show", "today"])    // bob opens alice's and releases his

        // The server flips one character of bob's thread message ciphertext: alice's device refuses it.
        let questionId = try await database.write { db in
            let row = try #require(try Row.fetchOne(db, sql: """
                SELECT m.thread_id, m.encrypted_payload, t.question_id FROM closer_thread_messages m
                JOIN closer_threads t ON t.id = m.thread_id JOIN kindred_users u ON u.id = m.user_id WHERE u.display_name = 'bob'
                """))
            var payload = Array((row[1] as String).utf8)
            let index = payload.count - 30
            payload[index] = payload[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            try db.execute(sql: "UPDATE closer_thread_messages SET encrypted_payload = ? WHERE thread_id = ? AND encrypted_payload = ?",
                           arguments: [String(decoding: payload, as: UTF8.self), row[0] as String, row[1] as String])
            return row[2] as String
        }
        let thread = try alice.run(["thread", "show", "today"])
        #expect(thread.status == 1)
        #expect(thread.stderr == "Error: tampered: the partner's answer does not open with the released key\n")
        let profile = URL(fileURLWithPath: alice.profile)
        let device = try CloserDevice.profile(
            at: profile, session: KindredSession(serverURL: server.url, app: .closer, store: FileTokenStore(profileDirectory: profile)),
            environment: CloserPhone.environment)
        await #expect(throws: CloserKitError.tampered("the partner's answer does not open with the released key")) {
            try await device.openThread(questionId: questionId)
        }
        #expect(await server.stop().status == 0)
    }

    @Test(.timeLimit(.minutes(5)))
    func theEleventhWrongAcceptInAnHourIsRateLimited() async throws {
        let server = try await LiveServer()
        let erin = phone("erin", server), dave = phone("dave", server)
        try erin.signUp("erin")
        try dave.signUp("dave")
        let share = try #require(try erin.succeed(["invite"]).split(separator: "\n").last.map(String.init))
        let code = String(share.prefix(6))
        let wrong = try InviteShare(code: code, secret: .generate()).text
        for attempt in 1...10 {
            let result = try dave.run(["accept", wrong])
            #expect(result.stderr.hasPrefix("Error: invite_verifier_mismatch (HTTP 403): "), "attempt \(attempt): \(result.stderr)")
        }
        let eleventh = try dave.run(["accept", share])  // even the right secret: the limit counts attempts
        #expect(eleventh.status != 0)
        #expect(eleventh.stderr.hasPrefix("Error: rate_limited (HTTP 429): "))
        #expect(await server.stop().status == 0)
    }
}
