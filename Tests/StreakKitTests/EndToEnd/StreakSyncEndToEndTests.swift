import Foundation
import KindredClient
import KindredTestSupport
import StreakClient
import StreakKit
import Testing

/// StreakSync through `kindred streaks` against a live `kindred serve`, on SQLite and PostgreSQL:
/// two players sign up, exchange friend codes, record results (one offline first: queued, then
/// synced), see each other on the day's leaderboard, a second device of one player pulls her
/// history, and a removed friend leaves the board.
@Suite(.serialized) struct StreakSyncEndToEndTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    @Test(.timeLimit(.minutes(6)), arguments: Backend.all)
    func twoPlayersBefriendSyncAndShareALeaderboard(backend: Backend) async throws {
        switch backend {
        case .sqlite:
            let server = try await LiveServer()
            do {
                try await flow(server, in: "sqlite")
            } catch {
                _ = await server.stop()
                throw error
            }
            #expect(await server.stop().status == 0)
        case .postgresql:
            try await TestDatabases.with(.postgresql) { database in
                guard case .postgres(let pg) = database.configuration.url else { throw PostgresDump.Failure(description: "not PostgreSQL") }
                let url = "postgres://\(pg.username)\(pg.password.map { ":\($0)" } ?? "")@\(pg.host):\(pg.port)/\(pg.database)"
                let server = try await LiveServer(databaseURL: url)
                do {
                    try await flow(server, in: "postgresql")
                } catch {
                    _ = await server.stop()
                    throw error
                }
                #expect(await server.stop().status == 0)
            }
        }
    }

    func phone(_ name: String, _ server: LiveServer, in subfolder: String, email: String? = nil) -> StreakPhone {
        StreakPhone(
            profile: folder.url.appendingPathComponent("\(subfolder)/\(name)").path, server: server.url,
            email: email ?? "\(name)@example.com")
    }

    static func wordle(_ puzzle: Int, guesses: Int) -> String {
        "Wordle \(puzzle) \(guesses)/6\n\n" + String(repeating: "⬛🟨⬛⬛⬛\n", count: guesses - 1) + "🟩🟩🟩🟩🟩"
    }

    static let connections = "Connections\nPuzzle #512\n🟨🟩🟨🟨\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪"

    func flow(_ server: LiveServer, in subfolder: String) async throws {
        let ana = phone("ana", server, in: subfolder), ben = phone("ben", server, in: subfolder)
        let today = LocalDay(Date(), in: TimeZone(identifier: "UTC")!).description

        // Ana plays before she has an account: the result waits in the offline queue.
        let offline = try ana.json(["add", Self.wordle(1_500, guesses: 3)])
        #expect(offline["inserted"] as? Bool == true)
        #expect(try ana.failure(["sync"]) == "not_signed_in")

        try ana.json(["signup", "--email", ana.email, "--name", "Ana"], password: ana.password)
        try ben.json(["signup", "--email", ben.email, "--name", "Ben"], password: ben.password)
        #expect(try ana.json(["profile"])["displayName"] as? String == "Ana")

        // A sync while the server is down keeps the queue; the next one drains it.
        #expect(await server.stop().status == 0)
        #expect(try ana.failure(["sync"]) == "network")
        // The score waiting for the leaderboard is kept in the profile's secure store, not in plain files.
        let anaSecrets = FileSecureStore(profileDirectory: URL(fileURLWithPath: ana.profile), keySource: .keyFile)
        let waiting = try PendingScoreVault(secureStore: anaSecrets).scores()
        #expect(waiting.map(\.game) == [.wordle] && waiting.first?.score == 3 && waiting.first?.day.description == today)
        try await server.start()
        let synced = try ana.json(["sync"])
        #expect(synced["uploadedResults"] as? Int == 1)
        #expect(synced["publishedScores"] as? Int == 1)
        // Published once, then gone from the secure store (a new instance: what the next launch reads).
        let reopened = FileSecureStore(profileDirectory: URL(fileURLWithPath: ana.profile), keySource: .keyFile)
        #expect(try reopened.read(PendingScoreVault.item) == nil)
        #expect(synced["stillPending"] as? Int == 0)
        #expect((synced["uploadedAchievements"] as? Int ?? 0) >= 1)
        #expect(try ana.json(["sync"])["uploadedResults"] as? Int == 0)

        // Friend codes: Ana asks with Ben's code, Ben accepts.
        let code = try #require(try ben.json(["code"])["code"] as? String)
        #expect(code.count == 6)
        #expect(try ana.failure(["friend", "add", "12345"]) == "invalid_input")
        #expect(try ana.failure(["friend", "add", try ana.json(["code"])["code"] as? String ?? ""]) == "own_friend_code")
        let request = try ana.json(["friend", "add", code.lowercased()])
        #expect(request["status"] as? String == "pending")
        let requestID = try #require(request["id"] as? String)
        let incoming = try #require(try ben.json(["friends"])["incoming"] as? [[String: Any]])
        #expect(incoming.compactMap { $0["id"] as? String } == [requestID])
        #expect(((incoming.first?["from"] as? [String: Any])?["displayName"]) as? String == "Ana")
        #expect(try ana.failure(["accept", requestID]) == "not_recipient")
        #expect(try ben.json(["accept", requestID])["status"] as? String == "accepted")
        let anaFriends = try #require(try ana.json(["friends"])["friends"] as? [[String: Any]])
        #expect(anaFriends.compactMap { ($0["user"] as? [String: Any])?["displayName"] as? String } == ["Ben"])

        // Ben plays Wordle better and Connections; both sync; each sees both on the board.
        #expect(try ben.json(["add", Self.wordle(1_500, guesses: 2)])["inserted"] as? Bool == true)
        #expect(try ben.json(["add", Self.connections])["inserted"] as? Bool == true)
        #expect(try ben.json(["sync"])["publishedScores"] as? Int == 2)
        for player in [ana, ben] {
            let board = try player.json(["board", "wordle"])
            #expect(board["localDate"] as? String == today)
            #expect(board["lowerIsBetter"] as? Bool == true)
            let entries = try #require(board["entries"] as? [[String: Any]])
            #expect(entries.compactMap { ($0["user"] as? [String: Any])?["displayName"] as? String } == ["Ben", "Ana"])
            #expect(entries.compactMap { $0["rank"] as? Int } == [1, 2])
            #expect(entries.compactMap { $0["score"] as? Int } == [2, 3])
            #expect(entries.compactMap { $0["currentStreak"] as? Int } == [1, 1])
        }
        let connections = try ben.json(["board", "connections", "--day", today])
        #expect((connections["entries"] as? [[String: Any]])?.compactMap { $0["score"] as? Int } == [5])
        #expect((connections["notPlayed"] as? [[String: Any]])?.compactMap { $0["displayName"] as? String } == ["Ana"])

        // Ana watches the Wordle board live; Ben improves his day's best on another puzzle, and
        // her watch prints the new board without being asked (the first board: when she subscribed).
        let watcher = try StreakWatcher(ana, ["board", "wordle", "--watch", "--count", "2"])
        let first = try await watcher.objects(count: 1)
        #expect((first.first?["entries"] as? [[String: Any]])?.compactMap { $0["score"] as? Int } == [2, 3])
        #expect(try ben.json(["add", Self.wordle(1_501, guesses: 1)])["inserted"] as? Bool == true)
        #expect(try ben.json(["sync"])["publishedScores"] as? Int == 1)
        let boards = try await watcher.objects(count: 2)
        #expect(boards.count == 2)
        let live = try #require(boards.last?["entries"] as? [[String: Any]])
        #expect(live.compactMap { $0["score"] as? Int } == [1, 3])
        #expect(live.compactMap { ($0["user"] as? [String: Any])?["displayName"] as? String } == ["Ben", "Ana"])
        #expect(try await watcher.exitStatus() == 0)
        #expect(try ana.failure(["board", "wordle", "--count", "2"]) == "usage")

        // Ana's second device pulls her history.
        let tablet = phone("ana-tablet", server, in: subfolder, email: ana.email)
        try tablet.json(["login", "--email", ana.email], password: ana.password)
        let pulled = try tablet.json(["sync"])
        #expect(pulled["pulledResults"] as? Int == 1)
        let list = try #require(try tablet.json(["list"])["results"] as? [[String: Any]])
        #expect(list.compactMap { $0["id"] as? String } == ["wordle:1500:\(today)"])
        #expect((list.first?["details"] as? [String: Any])?["rows"] as? [[String]] == [["a", "p", "a", "a", "a"], ["a", "p", "a", "a", "a"], ["c", "c", "c", "c", "c"]])

        // Removing the friendship takes Ana off Ben's board.
        try ana.json(["remove", requestID])
        let alone = try #require(try ben.json(["board", "wordle"])["entries"] as? [[String: Any]])
        #expect(alone.compactMap { ($0["user"] as? [String: Any])?["displayName"] as? String } == ["Ben"])
        #expect((try ben.json(["friends"])["friends"] as? [Any])?.isEmpty == true)

        // Signing out forgets the score staged for the account (a failed sync staged it); the
        // result itself stays on the device.
        #expect(try ana.json(["add", Self.wordle(1_502, guesses: 4)])["inserted"] as? Bool == true)
        #expect(await server.stop().status == 0)
        #expect(try ana.failure(["sync"]) == "network")
        #expect(try PendingScoreVault(secureStore: anaSecrets).scores().count == 1)
        try await server.start()
        try ana.json(["logout"])
        let afterLogout = FileSecureStore(profileDirectory: URL(fileURLWithPath: ana.profile), keySource: .keyFile)
        #expect(try afterLogout.read(PendingScoreVault.item) == nil)
        #expect((try ana.json(["list"])["results"] as? [Any])?.count == 2)
    }
}
