import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// The seed's critical tests through `kindred chat` against a live `kindred serve`, on SQLite and
/// PostgreSQL: sign-up and profile completion; pair and unpair, each accepted and rejected; local
/// and server cleanup after unpair; a second device refused, and allowed once the first logs out;
/// a message that lands in the recipient's store and is gone from the server after the
/// acknowledgement; takeover; a tampered envelope kept as failed and not acknowledged; the outbox
/// retried after the server comes back; and a scan of the server's storage and log for plaintext.
@Suite(.serialized) struct SoulMateEndToEndTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    @Test(.timeLimit(.minutes(6)), arguments: Backend.all)
    func twoPhonesPairChatAndUnpairAndTheServerKeepsNoPlaintext(backend: Backend) async throws {
        switch backend {
        case .sqlite:
            let server = try await LiveServer()
            let secrets = try await flow(server, in: "sqlite")
            let path = try #require(server.databaseURL.split(separator: ":", maxSplits: 1).last.map(String.init))
            let stopped = await server.stop()
            #expect(stopped.status == 0)
            let files = [path, path + "-wal"].compactMap { try? Data(contentsOf: URL(fileURLWithPath: $0)) }
            #expect(!files.isEmpty)
            expectNoPlaintext(secrets, in: files + [Data(stopped.stderr.utf8)])
        case .postgresql:
            try await TestDatabases.with(.postgresql) { database in
                guard case .postgres(let pg) = database.configuration.url else { throw PostgresDump.Failure(description: "not PostgreSQL") }
                let url = "postgres://\(pg.username)\(pg.password.map { ":\($0)" } ?? "")@\(pg.host):\(pg.port)/\(pg.database)"
                let server = try await LiveServer(databaseURL: url)
                let secrets: [String]
                do {
                    secrets = try await flow(server, in: "postgresql")
                } catch {
                    _ = await server.stop()
                    throw error
                }
                let stopped = await server.stop()
                #expect(stopped.status == 0)
                guard let dump = try PostgresDump.dump(url) else { return }
                expectNoPlaintext(secrets, in: [dump, Data(stopped.stderr.utf8)])
            }
        }
    }

    func phone(_ name: String, _ server: LiveServer, in subfolder: String, email: String? = nil) -> SoulMatePhone {
        SoulMatePhone(
            profile: folder.url.appendingPathComponent("\(subfolder)/\(name)").path, server: server.url,
            email: email ?? "\(name)@example.com"
        )
    }

    /// Runs SQL against the server's database.
    func withDatabase<T: Sendable>(_ server: LiveServer, _ body: (any SQLDatabase) async throws -> T) async throws -> T {
        let database = try await Database.open(DatabaseConfiguration(url: try DatabaseURL(parsing: server.databaseURL)))
        do {
            let result = try await body(database.sql)
            await database.close()
            return result
        } catch {
            await database.close()
            throw error
        }
    }

    func envelopesOnServer(_ server: LiveServer) async throws -> Int {
        try await withDatabase(server) { try await $0.count("soulmate_envelopes") }
    }

    /// The whole flow. - Returns: every plaintext message written.
    func flow(_ server: LiveServer, in subfolder: String) async throws -> [String] {
        let ayse = phone("ayse", server, in: subfolder), burak = phone("burak", server, in: subfolder)

        // Sign-up with both names; profile completion when they are missing.
        try ayse.json(["signup", "--email", ayse.email, "--first", "Ayşe", "--last", "Yılmaz"], password: ayse.password)
        try burak.json(["signup", "--email", burak.email, "--first", "Burak", "--last", "Demir"], password: burak.password)
        #expect(try ayse.json(["route"])["route"] as? String == "pairing")
        try ayse.json(["profile", "--first", "", "--last", ""])
        #expect(try ayse.json(["route"])["route"] as? String == "profileCompletion")
        #expect(try ayse.failure(["request", "000000"]) == "profile_incomplete")
        try ayse.json(["profile", "--first", "Ayşe", "--last", "Yılmaz"])
        #expect(try ayse.json(["route"])["route"] as? String == "pairing")

        // Pair: a request rejected, one cancelled, then one accepted.
        let code = try #require(try burak.json(["code"])["code"] as? String)
        #expect(code.count == 6)
        #expect(try ayse.failure(["request", code == "123456" ? "654321" : "123456"]) == "pair_code_not_found")
        let first = try #require(try ayse.json(["request", code])["id"] as? String)
        let incoming = try burak.json(["requests"])
        #expect(incoming["pendingCount"] as? Int == 1)
        #expect(((incoming["incoming"] as? [[String: Any]])?.first?["from"] as? [String: Any])?["firstName"] as? String == "Ayşe")
        #expect(try burak.json(["reject", first])["status"] as? String == "rejected")
        #expect(try ayse.json(["route"])["route"] as? String == "pairing")
        let second = try #require(try ayse.json(["request", code])["id"] as? String)
        #expect(try ayse.json(["cancel", second])["status"] as? String == "cancelled")
        let third = try #require(try ayse.json(["request", code])["id"] as? String)
        #expect(try burak.json(["accept", third])["paired"] as? Bool == true)
        #expect(try ayse.json(["route"])["route"] as? String == "chat")
        #expect(try burak.json(["route"])["route"] as? String == "chat")

        // Messages land in the partner's store and leave the server after the acknowledgement.
        let texts = ["Merhaba aşkım, bugün nasılsın? 🌷 marker-7c1f", "Seni çok özledim marker-9d2e"]
        let secret = "Akşam sürpriz var marker-3a4b"
        var sent: [String] = []
        for text in texts { sent.append(try #require(try ayse.json(["send", text])["id"] as? String)) }
        sent.append(try #require(try ayse.json(["send", secret, "--secret"])["id"] as? String))
        sent.append(try #require(try ayse.json(["emoji", "😍💜"])["id"] as? String))
        sent.append(try #require(try ayse.json(["gif", "tenor-42", "https://media.example.com/hug.gif"])["id"] as? String))
        sent.append(try #require(try ayse.json(["heart"])["id"] as? String))
        #expect(try await envelopesOnServer(server) == 6)
        let sync = try burak.json(["sync"])
        #expect(Set(sync["received"] as? [String] ?? []) == Set(sent))
        #expect(sync["acknowledged"] as? Int == 6)
        #expect(try await envelopesOnServer(server) == 0)
        let history = try #require(try burak.json(["history"])["messages"] as? [[String: Any]])
        #expect(history.map { $0["id"] as? String } == sent)
        #expect(history.compactMap { $0["value"] as? String }.contains(texts[0]))
        let hidden = try #require(history.first { $0["isSecret"] as? Bool == true })
        #expect(hidden["hidden"] as? Bool == true && hidden["value"] is NSNull)
        #expect(try burak.json(["open", sent[2]])["value"] as? String == secret)
        #expect(history.first { $0["type"] as? String == "gif" }?["value"] as? String == "https://media.example.com/hug.gif#gif-id=tenor-42")
        #expect(try burak.json(["sync"])["received"] as? [String] == [])

        // A tampered envelope is kept as failed with its reason and is not acknowledged.
        let tampered = try #require(try burak.json(["send", "Bunu değiştirecekler marker-5e6f"])["id"] as? String)
        try await withDatabase(server) { sql in
            let row = try #require(try await sql.select().column("ciphertext").from("soulmate_envelopes").where("id", .equal, tampered).first())
            var bytes = try #require(Data(base64Encoded: try row.decode(column: "ciphertext", as: String.self)))
            bytes[20] ^= 0x01
            try await sql.update("soulmate_envelopes").set("ciphertext", to: bytes.base64EncodedString()).where("id", .equal, tampered).run()
        }
        let failedSync = try ayse.json(["sync"])
        #expect((failedSync["undecryptable"] as? [String: String])?.keys.first == tampered)
        #expect(failedSync["acknowledged"] as? Int == 0)
        #expect(try await envelopesOnServer(server) == 1)
        let aliceHistory = try #require(try ayse.json(["history"])["messages"] as? [[String: Any]])
        let kept = try #require(aliceHistory.first { $0["id"] as? String == tampered })
        #expect(kept["type"] as? String == "undecryptable" && kept["state"] as? String == "failed")
        #expect((kept["failure"] as? String)?.isEmpty == false)

        // A second device is refused while the first holds the lock; after logout it may log in;
        // the first takes the account back with its password and the second is signed out.
        let tablet = phone("ayse-tablet", server, in: subfolder, email: ayse.email)
        #expect(try tablet.failure(["login", "--email", ayse.email], password: ayse.password) == "session_locked")
        #expect(try tablet.json(["route"])["route"] as? String == "auth")
        #expect(try ayse.json(["logout"])["signedOut"] as? Bool == true)
        #expect(try tablet.json(["login", "--email", ayse.email], password: ayse.password)["route"] as? String == "chat")
        #expect(try ayse.failure(["takeover", "--email", ayse.email], password: "wrong password!") == "invalid_credentials")
        #expect(try ayse.json(["takeover", "--email", ayse.email], password: ayse.password)["route"] as? String == "chat")
        #expect(try tablet.json(["route"])["route"] as? String == "auth")
        #expect(try ayse.json(["route"])["lock"] as? String == "held")

        // The outbox: written while the server is down, sent when it is back.
        _ = await server.stop()
        let offline = try ayse.run(["send", "Sunucu kapalıyken yazdım marker-1b2c"], json: true)
        #expect(offline.status == 0, "\(offline.stderr)")
        let pendingID = try #require((try JSONSerialization.jsonObject(with: Data(offline.text.utf8)) as? [String: Any])?["id"] as? String)
        try await server.start()
        #expect(try ayse.json(["sync"])["sent"] as? [String] == [pendingID])
        #expect(try burak.json(["sync"])["received"] as? [String] == [pendingID])

        // Unpair: rejected once, then accepted; both phones and the server forget the conversation.
        let unpair = try #require(try burak.json(["unpair"])["id"] as? String)
        #expect(try ayse.json(["reject", unpair])["paired"] as? Bool == true)
        #expect(try ayse.json(["route"])["route"] as? String == "chat")
        let again = try #require(try burak.json(["unpair"])["id"] as? String)
        #expect(try burak.failure(["accept", again]) == "not_recipient")
        #expect(try ayse.json(["accept", again])["paired"] as? Bool == false)
        #expect(try await envelopesOnServer(server) == 0)
        #expect(try ayse.failure(["history"]) == "not_paired")
        #expect(try burak.json(["sync"])["unpaired"] as? Bool == true)
        #expect(try burak.failure(["history"]) == "not_paired")
        #expect(try burak.json(["route"])["route"] as? String == "pairing")
        #expect(try ayse.json(["route"])["route"] as? String == "pairing")
        let localRows = try await withDatabaseFile(URL(fileURLWithPath: burak.profile).appendingPathComponent("local_messages.sqlite"))
        #expect(localRows == 0)

        return texts + [secret, "Bunu değiştirecekler marker-5e6f", "Sunucu kapalıyken yazdım marker-1b2c", "marker-"]
    }

    /// The rows of `local_messages` in a phone's store (the file, read directly).
    func withDatabaseFile(_ url: URL) async throws -> Int {
        let database = try await Database.open(DatabaseConfiguration(url: .sqlite(path: url.path)))
        let count = try? await database.sql.count("local_messages")
        await database.close()
        return try #require(count)
    }

    func expectNoPlaintext(_ secrets: [String], in blobs: [Data]) {
        for secret in secrets {
            #expect(!blobs.contains { $0.range(of: Data(secret.utf8)) != nil }, "found plaintext on the server: \(secret.prefix(8))…")
        }
    }
}
