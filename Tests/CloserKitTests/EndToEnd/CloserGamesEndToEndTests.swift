import Foundation
import KindredTestSupport
import Testing

/// Two phones (`kindred closer play … --json`, each with its own `--profile`) against a live
/// `kindred serve`: all four games from start to result, both phones computing the same result,
/// the refusals a phone meets (a premium pack for a free couple, a Desire Sync set above the cap),
/// and no answer in plaintext in the server's log or database afterwards.
@Suite(.serialized) struct CloserGamesEndToEndTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    @Test(.timeLimit(.minutes(4)))
    func twoPhonesPlayAllFourGames() async throws {
        let server = try await LiveServer()
        do {
            try flow(server)
        } catch {
            _ = await server.stop()
            throw error
        }
        let database = String(server.databaseURL.dropFirst("sqlite:".count))
        let stopped = await server.stop()
        #expect(stopped.status == 0)
        // The server's log and database after the games: the slots' plaintext fields (and the
        // Desire Sync items only Bob said yes to) appear nowhere. The log did record the game
        // routes (so the scan read something).
        #expect(stopped.stderr.contains("/v1/closer/couples/{coupleId}/games/{sessionId}/"), "\(stopped.stderr.suffix(2_000))")
        var stored = Data()
        for suffix in ["", "-wal"] { stored.append((try? Data(contentsOf: URL(fileURLWithPath: database + suffix))) ?? Data()) }
        #expect(stored.range(of: Data("enc:v1:".utf8)) != nil, "the slots' ciphertexts are in what was scanned")
        for needle in ["\"choices\"", "\"blinded\"", "\"doubleBlinded\"", "\"share\"", "\"role\"", "ds-010", "ds-011"] {
            #expect(!stopped.stderr.contains(needle), "the log holds \(needle)")
            #expect(stored.range(of: Data(needle.utf8)) == nil, "the database holds \(needle)")
        }
    }

    func flow(_ server: LiveServer) throws {
        let alice = CloserPhone(profile: folder.url.appendingPathComponent("alice").path, server: server.url)
        let bob = CloserPhone(profile: folder.url.appendingPathComponent("bob").path, server: server.url)
        try alice.signUp("alice")
        try bob.signUp("bob")
        let share = try #require(try alice.succeed(["invite"]).split(separator: "\n").last.map(String.init))
        #expect(try bob.succeed(["accept", share]).hasPrefix("paired: couple "))

        // This or That: 20 of 35 pairs alike.
        let tot = try #require(try alice.json(["play", "this-or-that", "start"])["id"] as? String)
        let waiting = try alice.json(["play", "this-or-that", "answer", tot, String(repeating: "a", count: 35)])
        #expect(waiting["status"] as? String == "committing")
        #expect(waiting["waitingFor"] as? String == "your partner")
        _ = try bob.json(["play", "this-or-that", "answer", tot, String(repeating: "a", count: 20) + String(repeating: "b", count: 15)])
        for phone in [alice, bob] {
            let result = try phone.json(["play", "this-or-that", "result", tot])
            #expect(result["status"] as? String == "finished")
            let score = result["score"] as? [String: Any]
            #expect(score?["matches"] as? Int == 20 && score?["total"] as? Int == 35)
        }
        #expect(try alice.succeed(["play", "this-or-that", "result", tot]).contains("score: 20/35 (57%)"))
        #expect(try alice.failure(["play", "this-or-that", "answer", tot, "ab"]).code == "invalid_input")

        // How Well: alice about herself, bob guesses; 10 right.
        let hw = try #require(try bob.json(["play", "how-well", "start"])["id"] as? String)
        let mine = String(String(repeating: "abcd", count: 9).prefix(35))
        _ = try alice.json(["play", "how-well", "answer", hw, "--role", "self", mine])
        // The first 10 as alice answered, the other 25 wrong.
        let guesses = String(mine.prefix(10)) + String(mine.dropFirst(10).map { $0 == "a" ? "b" : "a" })
        _ = try bob.json(["play", "how-well", "answer", hw, "--role", "guess", guesses])
        for phone in [alice, bob] {
            let score = try phone.json(["play", "how-well", "result", hw])["score"] as? [String: Any]
            #expect(score?["matches"] as? Int == 10, "\(String(describing: score))")
        }

        // Spin the Wheel: both phones land on the same segment.
        let wheel = try #require(try alice.json(["play", "wheel", "start"])["id"] as? String)
        _ = try alice.json(["play", "wheel", "answer", wheel])
        _ = try bob.json(["play", "wheel", "answer", wheel])
        let spinA = try alice.json(["play", "wheel", "result", wheel])
        let spinB = try bob.json(["play", "wheel", "result", wheel])
        #expect(spinA["wheelIndex"] as? Int != nil)
        #expect(spinA["wheelIndex"] as? Int == spinB["wheelIndex"] as? Int)
        #expect(spinA["wheelItem"] as? String == spinB["wheelItem"] as? String)

        // Desire Sync: two rounds; each phone learns the overlap and the other's set size.
        let ds = try #require(try alice.json(["play", "desire-sync", "start"])["id"] as? String)
        #expect(try alice.failure(["play", "desire-sync", "answer", ds] + (1...18).map { String(format: "ds-%03d", $0) }).code == "invalid_input")
        _ = try alice.json(["play", "desire-sync", "answer", ds, "ds-001", "ds-002", "ds-003"])
        _ = try bob.json(["play", "desire-sync", "answer", ds, "ds-002", "ds-003", "ds-010", "ds-011"])
        #expect(try alice.json(["play", "desire-sync", "result", ds])["status"] as? String != "finished")
        _ = try bob.json(["play", "desire-sync", "result", ds])
        let dsA = try alice.json(["play", "desire-sync", "result", ds])
        let dsB = try bob.json(["play", "desire-sync", "result", ds])
        #expect(dsA["status"] as? String == "finished")
        #expect(dsA["overlap"] as? [String] == ["ds-002", "ds-003"])
        #expect(dsB["overlap"] as? [String] == ["ds-002", "ds-003"])
        #expect(dsA["partnerSetSize"] as? Int == 4)
        #expect(dsB["partnerSetSize"] as? Int == 3)

        // A premium pack for a free couple: the server's code, one line on standard error.
        let premium = try alice.failure(["play", "this-or-that", "start", "--pack", "tot-romance"])
        #expect(premium.code == "premium_required")
        #expect(premium.stderr.split(separator: "\n").count == 1, "\(premium.stderr)")
    }
}
