import CloserAPI
import CloserKit
import Foundation
import GRDB
import KindredAPI
import KindredClient
import KindredCrypto
import KindredTestSupport
import Testing

/// Two phones against a live `kindred serve`: `closer partner` shows each the other's name and
/// photo; and a legacy (version 0) couple with plaintext answers is moved to version 2 by
/// `closer migrate` — alice's run is interrupted after one rewrite and continues when run
/// again, bob recovers the new couple key with alice's phrase and completes.
@Suite(.serialized) struct CloserPartnerMigrateEndToEndTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    func phone(_ name: String, _ server: LiveServer) -> CloserPhone {
        CloserPhone(profile: folder.url.appendingPathComponent(name).path, server: server.url)
    }

    func session(_ phone: CloserPhone) -> KindredSession {
        KindredSession(serverURL: phone.server, app: .closer, store: FileTokenStore(profileDirectory: URL(fileURLWithPath: phone.profile)))
    }

    @Test(.timeLimit(.minutes(4)))
    func eachPartnerSeesTheOthersNameAndPhoto() async throws {
        let server = try await LiveServer()
        let alice = phone("partner/alice", server), bob = phone("partner/bob", server), eve = phone("partner/eve", server)
        try alice.signUp("alice")
        try bob.signUp("bob")
        try eve.signUp("eve")
        let share = try #require(try alice.succeed(["invite"]).split(separator: "\n").last.map(String.init))
        #expect(try bob.succeed(["accept", share]).hasPrefix("paired: couple "))
        _ = try await session(bob).updateMe(.init(photoURL: "https://img.example.com/bob.jpg"))
        let bobID = try #require(try await session(bob).storedSession()?.userID)
        let aliceID = try #require(try await session(alice).storedSession()?.userID)

        #expect(try alice.json(["partner"]) as NSDictionary == [
            "userId": bobID, "displayName": "bob", "photoUrl": "https://img.example.com/bob.jpg",
        ] as NSDictionary)
        #expect(try bob.json(["partner"]) as NSDictionary == ["userId": aliceID, "displayName": "alice"] as NSDictionary)
        #expect(try alice.succeed(["partner"]) == "partner: \(bobID)\nname: bob\nphoto: https://img.example.com/bob.jpg\n")
        // Someone in no couple: one line on standard error, the code in the JSON error.
        let refused = try eve.run(["partner", "--json"])
        #expect(refused.status != 0)
        #expect(refused.stderr == "Error: not in a couple: create or accept an invite first [not_paired]\n")
        #expect(refused.text == #"{"error":{"code":"not_paired","message":"not in a couple: create or accept an invite first"}}"# + "\n")
        #expect(await server.stop().status == 0)
    }

    @Test(.timeLimit(.minutes(5)))
    func aLegacyCoupleIsMigratedResumablyByBothPhones() async throws {
        let server = try await LiveServer(environment: ["KINDRED_CLOSER_LEGACY_CLIENTS": "true"])
        let alice = phone("migrate/alice", server), bob = phone("migrate/bob", server)
        try alice.signUp("alice")
        try bob.signUp("bob")
        let aliceSession = session(alice), bobSession = session(bob)
        let coupleID = try await Self.legacyPair(aliceSession, bobSession)

        // Three dates: today's on demand and the two before it (as the daily job writes them).
        let today = try await aliceSession.authorizedCall(with: aliceSession.closerClient) {
            try await $0.assignCloserToday(path: .init(coupleId: coupleID), headers: .init(xKindredApp: .closer))
        }
        let day = try #require((try? today.created.body.json) ?? (try? today.ok.body.json))
        let dates = [Self.date(day.date, plus: -2), Self.date(day.date, plus: -1), day.date]
        let path = String(server.databaseURL.dropFirst("sqlite:".count))
        let queue = try DatabaseQueue(path: path)
        for date in dates.prefix(2) {
            try await queue.write { db in
                try db.execute(
                    sql: "INSERT INTO closer_days (couple_id, date_key, question_id, assigned_at, expires_at) VALUES (?, ?, ?, ?, ?)",
                    arguments: [coupleID, date, day.questionId, 0, Int64(Date().timeIntervalSince1970 * 1000) + 86_400_000]
                )
            }
        }
        var texts: [String: String] = [:]
        for date in dates { texts["alice \(date)"] = "alice's plain answer of \(date)" }
        texts["bob \(dates[1])"] = "bob's plain answer of \(dates[1])"
        for (key, text) in texts {
            let parts = key.split(separator: " ").map(String.init)
            let who = parts[0] == "alice" ? aliceSession : bobSession
            let userID = try #require(try await who.storedSession()?.userID)
            let created = try await who.authorizedCall(with: who.closerClient) {
                try await $0.createCloserAnswer(
                    path: .init(coupleId: coupleID, date: parts[1], userId: userID), headers: .init(xKindredApp: .closer),
                    body: .json(.init(schemaVersion: ._1, text: text))
                )
            }
            #expect((try? created.created) != nil, "\(created)")
        }

        // Alice's first run stops after one rewrite (a crash, as far as the device knows).
        let aliceDevice = try CloserDevice.profile(
            at: URL(fileURLWithPath: alice.profile), session: aliceSession, environment: CloserPhone.environment,
            kdfParameters: try CloserKDFParameters(memoryKiB: 256, iterations: 1, parallelism: 1)
        )
        struct Interrupted: Error {}
        await #expect(throws: CloserKitError.self) {
            _ = try await aliceDevice.migrateEncryption { _ in throw Interrupted() }
        }
        let kept = try #require(try EncryptionMigrationProgress.load(from: aliceDevice.secureStore))
        #expect(kept == EncryptionMigrationProgress(coupleId: coupleID, started: true, rewritten: [dates[0]], completed: false))
        #expect(try await Self.couple(coupleID, aliceSession).encryptionVersion == ._1)

        // Run again from the command line: it continues with the two answers left.
        let report = try alice.json(["migrate"])
        #expect(report["coupleId"] as? String == coupleID)
        #expect(report["startedHere"] as? Bool == false)
        #expect(report["resumed"] as? [String] == [dates[0]])
        #expect(report["rewritten"] as? [String] == [dates[1], dates[2]])
        #expect(report["encryptionVersion"] as? Int == 1)
        #expect(report["completed"] as? Bool == true)

        // Bob has no couple key yet: migrate says so; with alice's phrase he recovers and completes.
        let refused = try bob.run(["migrate"])
        #expect(refused.status != 0)
        #expect(refused.stderr.hasPrefix("Error: this device holds no couple key"), "\(refused.stderr)")
        let phrase = try #require(try alice.succeed(["phrase", "show"]).split(separator: "\n").last.map(String.init))
        _ = try bob.succeed(["recover", "--phrase", phrase])
        let bobReport = try bob.json(["migrate"])
        #expect(bobReport["rewritten"] as? [String] == [dates[1]])
        #expect(bobReport["encryptionVersion"] as? Int == 2)
        let again = try alice.json(["migrate"])
        #expect(again["encryptionVersion"] as? Int == 2)
        #expect(again["rewritten"] as? [String] == [])

        // Every answer is now `enc:v1:` under the couple key and opens to what was written.
        let keyring = try aliceDevice.keyring()
        let history = try await aliceSession.authorizedCall(with: aliceSession.closerClient) {
            try await $0.listCloserHistory(path: .init(coupleId: coupleID), query: .init(limit: 10), headers: .init(xKindredApp: .closer))
        }
        let aliceID = try #require(try await aliceSession.storedSession()?.userID)
        var opened: [String: String] = [:]
        for day in try history.ok.body.json.days {
            for answer in day.answers {
                #expect(answer.schemaVersion.rawValue == 2 && answer.text == nil && answer.migratedAt != nil)
                let text = try keyring.cipher.decryptText(try #require(answer.encryptedText), coupleId: coupleID)
                opened["\(answer.userId == aliceID ? "alice" : "bob") \(answer.date)"] = text
            }
        }
        #expect(opened == texts)
        #expect(await server.stop().status == 0)
    }

    /// Pairs two accounts through a version-0 invite (no key material); returns the couple id.
    static func legacyPair(_ inviter: KindredSession, _ acceptor: KindredSession) async throws -> String {
        let invite = try await inviter.authorizedCall(with: inviter.closerClient) { try await $0.createCloserInvite(headers: .init(xKindredApp: .closer)) }
        let code = try invite.created.body.json.code
        _ = try await inviter.authorizedCall(with: inviter.closerClient) {
            try await $0.putCloserInviteMaterial(path: .init(code: code), headers: .init(xKindredApp: .closer), body: .json(.init()))
        }
        let accepted = try await acceptor.authorizedCall(with: acceptor.closerClient) {
            try await $0.acceptCloserInvite(path: .init(code: code), headers: .init(xKindredApp: .closer), body: .json(.init()))
        }
        return try accepted.created.body.json.couple.id
    }

    static func couple(_ id: String, _ session: KindredSession) async throws -> CloserAPI.Components.Schemas.CloserCouple {
        try await session.authorizedCall(with: session.closerClient) {
            try await $0.getCloserCouple(path: .init(coupleId: id), headers: .init(xKindredApp: .closer))
        }.ok.body.json
    }

    /// `date` moved by `days` (both `YYYY-MM-DD`).
    static func date(_ date: String, plus days: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = date.split(separator: "-").compactMap { Int($0) }
        let noon = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12)) ?? Date()
        let moved = calendar.date(byAdding: .day, value: days, to: noon) ?? noon
        let c = calendar.dateComponents([.year, .month, .day], from: moved)
        return String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }
}
