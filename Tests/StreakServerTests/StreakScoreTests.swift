@testable import KindredServer
@testable import KindredServerCore
@testable import StreakServer
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// Scores and leaderboards: one score per user, game and date; ranked by the game's direction;
/// friends who have not played; live events for the current date only.
@Suite struct StreakScoreTests {
    /// Pia and four friends (Ann, Bob, Cat, Dev); Sam is a stranger.
    static func circle(_ client: any TestClientProtocol) async throws -> (pia: StreakMember, friends: [StreakMember], sam: StreakMember) {
        let pia = try await client.streakMember("pia", displayName: "Pia")
        var friends: [StreakMember] = []
        for name in ["ann", "bob", "cat", "dev"] {
            let friend = try await client.streakMember(name, displayName: name.capitalized)
            try await client.befriend(friend, pia)
            friends.append(friend)
        }
        return (pia, friends, try await client.streakMember("sam", displayName: "Sam"))
    }

    @Test(arguments: Backend.all)
    func aLowerIsBetterGameRanksCompletedThenFewerThenEarlier(backend: Backend) async throws {
        let clock = try StreakFixtures.clock()
        try await TestApplication.run(on: backend, clock: clock) { _, client in
            let (pia, friends, _) = try await Self.circle(client)
            let (ann, bob, cat) = (friends[0], friends[1], friends[2])
            #expect(try await client.publish(ann, score: 3, streak: 12).status == .ok)
            clock.advance(by: .seconds(60))
            #expect(try await client.publish(bob, score: 5).status == .ok)
            #expect(try await client.publish(pia, score: 6, completed: false).status == .ok)
            clock.advance(by: .seconds(60))
            #expect(try await client.publish(cat, score: 3).status == .ok)
            let board = try await client.board(pia)
            #expect(board.entries == [ann.id, cat.id, bob.id, pia.id])
            #expect(board.ranks == [1, 1, 3, 4])
            #expect(board.notPlayed == [friends[3].id])
            let full = try await client.leaderboard(pia)
            #expect(full["lowerIsBetter"] as? Bool == true && full["gameId"] as? String == "wordle" && full["localDate"] as? String == StreakFixtures.today)
            let first = (full["entries"] as? [[String: Any]])?.first
            #expect(first?["currentStreak"] as? Int == 12 && first?["max"] as? Int == 6 && first?["completed"] as? Bool == true)
            #expect((first?["user"] as? [String: Any])?["displayName"] as? String == "Ann")
            #expect(first?["publishedAt"] as? String == StreakFixtures.noon)
            // Republishing replaces: one entry per person, with the new score.
            #expect(try await client.publish(bob, score: 2).status == .ok)
            #expect(try await client.board(pia).entries == [bob.id, ann.id, cat.id, pia.id])
            // Another game, another date: separate boards.
            #expect(try await client.board(pia, game: "connections").entries.isEmpty)
            #expect(try await client.board(pia, date: StreakFixtures.yesterday).entries.isEmpty)
        }
    }

    @Test(arguments: Backend.all)
    func aPointsGameRanksHigherFirst(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { _, client in
            let (pia, friends, _) = try await Self.circle(client)
            for (member, points) in [(pia, 120), (friends[0], 180), (friends[1], 120), (friends[2], 40)] {
                #expect(try await client.publish(member, game: "spelling-bee", score: points, max: 200).status == .ok)
            }
            let board = try await client.board(pia, game: "spelling-bee")
            try #require(board.entries.count == 4)
            #expect(board.entries.first == friends[0].id && board.entries.last == friends[2].id)
            #expect(Set(board.entries[1...2]) == [pia.id, friends[1].id])
            #expect(board.ranks == [1, 2, 2, 4])
            // Dev reads Pia and himself only: Pia's other friends are not his.
            let devs = try await client.board(friends[3], game: "spelling-bee")
            #expect(devs.entries == [pia.id] && devs.notPlayed.isEmpty)
            #expect((try await client.leaderboard(pia, game: "spelling-bee"))["lowerIsBetter"] as? Bool == false)
        }
    }

    @Test(arguments: Backend.all)
    func aScoreOfTheCurrentDateReachesEveryReaderAtOnceAndAPastOneNobody(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { application, client in
            let database = application.database
            let (pia, friends, sam) = try await Self.circle(client)
            let pen = try await client.streakMember("pen")
            _ = try await client.pendingFriendship(from: pen, to: pia)
            let live = try await client.publish(pia, score: 4, streak: 9, timeZone: "UTC")
            #expect(client.object(live)["live"] as? Bool == true, "\(live.text)")
            for reader in [pia] + friends {
                let events = try await StreakFixtures.events("streaksync.score", for: reader.id, on: database)
                #expect(events.count == 1, "\(reader.displayName ?? "")")
                let data = events.first?.data ?? [:]
                #expect(data["userId"] as? String == pia.id && data["displayName"] as? String == "Pia")
                #expect(data["gameId"] as? String == "wordle" && data["localDate"] as? String == StreakFixtures.today)
                #expect(data["score"] as? Int == 4 && data["currentStreak"] as? Int == 9 && data["completed"] as? Bool == true)
            }
            for outsider in [sam, pen] {
                #expect(try await StreakFixtures.events("streaksync.score", for: outsider.id, on: database).isEmpty)
            }
            // A past date: stored, nobody told.
            let past = try await client.publish(pia, date: StreakFixtures.yesterday, score: 2, timeZone: "UTC")
            #expect(client.object(past)["live"] as? Bool == false)
            #expect(try await StreakFixtures.events("streaksync.score", for: friends[0].id, on: database).count == 1)
            #expect(try await client.board(friends[0], date: StreakFixtures.yesterday).entries == [pia.id])
            // Without a time zone, a date that is today anywhere on Earth is current (Kiribati is on the 2nd).
            #expect(client.object(try await client.publish(pia, date: StreakFixtures.tomorrowInKiribati, score: 5))["live"] as? Bool == true)
            #expect(client.object(try await client.publish(pia, date: StreakFixtures.yesterday, score: 5))["live"] as? Bool == false)
            // With one, only that zone's today: at 12:00 UTC it is the 2nd in Kiribati, the 1st in London.
            let kiribati = try await client.publish(pia, date: StreakFixtures.tomorrowInKiribati, score: 5, timeZone: "Pacific/Kiritimati")
            #expect(client.object(kiribati)["live"] as? Bool == true)
            let london = try await client.publish(pia, date: StreakFixtures.tomorrowInKiribati, score: 5, timeZone: "Europe/London")
            #expect(client.object(london)["live"] as? Bool == false)
            #expect(try await StreakFixtures.events("streaksync.score", for: friends[0].id, on: database).count == 3)
        }
    }

    @Test(arguments: Backend.all)
    func readersFollowFriendshipsForEveryScoreOldAndNew(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { _, client in
            let pia = try await client.streakMember("pia")
            let ned = try await client.streakMember("ned")
            #expect(try await client.publish(pia, date: StreakFixtures.yesterday, score: 3).status == .ok)
            #expect(try await client.board(ned, date: StreakFixtures.yesterday).entries.isEmpty)
            // Friends from now on: Ned reads Pia's earlier score too (the readers are per publisher, not per score).
            let friendship = try await client.befriend(ned, pia)
            #expect(try await client.board(ned, date: StreakFixtures.yesterday).entries == [pia.id])
            #expect(try await client.board(pia).notPlayed == [ned.id])
            // And no longer once it ends.
            #expect(try await client.streak(.delete, "/v1/streaksync/friendships/\(friendship)", token: pia.token).status == .noContent)
            #expect(try await client.board(ned, date: StreakFixtures.yesterday).entries.isEmpty)
            #expect(try await client.board(pia).notPlayed.isEmpty)
        }
    }

    @Test(arguments: Backend.all)
    func aPublishToFiveHundredFriendsTellsEachOnce(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { application, client in
            let database = application.database
            let pia = try await client.streakMember("pia")
            let others = try await StreakFixtures.insertUsers(500, prefix: "fan", on: database)
            for other in others { try await StreakFixtures.insertFriendship(pia.id, other, on: database) }
            #expect(try await client.publish(pia, score: 4, timeZone: "UTC").status == .ok)
            let told = try await database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                .from("kindred_realtime_events").where("type", .equal, "streaksync.score").first()?.decode(column: "n", as: Int.self)
            #expect(told == 501)
            for fan in [others[0], others[499]] {
                #expect(try await StreakFixtures.events("streaksync.score", for: fan, on: database).count == 1)
            }
            // Pia's board: her score and 500 friends who have not played, named and sorted.
            let board = try await client.board(pia)
            #expect(board.entries == [pia.id] && board.notPlayed.count == 500)
        }
    }

    @Test(arguments: Backend.all)
    func badScoresAndPathsAreRefused(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { application, client in
            let pia = try await client.streakMember("pia")
            let nameless = try await client.streakMember("nameless", profile: false)
            let put = { (path: String, body: String) in
                try await client.streak(.put, "/v1/streaksync/scores/\(path)", token: pia.token, json: body)
            }
            let good = StreakFixtures.score(3)
            expectRefusal(try await put("Wordle/\(StreakFixtures.today)", good), 400, "invalid_game")
            expectRefusal(try await put("wordle!/\(StreakFixtures.today)", good), 400, "invalid_game")
            expectRefusal(try await put("no-such-game/\(StreakFixtures.today)", good), 404, "unknown_game")
            for date in ["2026-13-01", "2026-02-29", "26-07-01", "today", "2026-07-01T00:00:00Z"] {
                expectRefusal(try await put("wordle/\(date)", good), 400, "invalid_date", date)
            }
            expectRefusal(try await put("wordle/2026-07-03", good), 422, "invalid_score", "after today everywhere")
            expectRefusal(try await put("wordle/2025-05-26", good), 422, "invalid_score", "older than 400 days")
            #expect(try await put("wordle/2025-05-27", good).status == .ok)
            for (body, what) in [
                (StreakFixtures.score(-1), "score"), (StreakFixtures.score(1_000_001), "score"), (StreakFixtures.score(3, max: 2_000_000), "max"),
                (StreakFixtures.score(3, streak: -1), "currentStreak"), (StreakFixtures.score(3, streak: 100_001), "currentStreak"),
                (StreakFixtures.score(3, timeZone: "Mars/Olympus_Mons"), "timeZone"),
            ] {
                let response = try await put("wordle/\(StreakFixtures.today)", body)
                expectRefusal(response, 422, "invalid_score", what)
                #expect(response.text.contains(what), "\(response.text)")
            }
            #expect(try await put("wordle/\(StreakFixtures.today)", #"{"score":3}"#).status == .badRequest)
            expectRefusal(
                try await client.streak(.put, "/v1/streaksync/scores/wordle/\(StreakFixtures.today)", token: nameless.token, json: good),
                422, "profile_incomplete"
            )
            for path in ["Wordle/\(StreakFixtures.today)", "wordle/2026-02-30"] {
                let response = try await client.streak(.get, "/v1/streaksync/leaderboards/\(path)", token: pia.token)
                #expect(response.status == .badRequest, "\(response.text)")
            }
            expectRefusal(try await client.streak(.get, "/v1/streaksync/leaderboards/chess/\(StreakFixtures.today)", token: pia.token), 404, "unknown_game")
            // Nothing of the refused ones was stored.
            #expect(try await StreakFixtures.count("streaksync_scores", where: "user_id", is: pia.id, on: application.database) == 1)
        }
    }

    @Test(arguments: Backend.all)
    func theGamesListTheLeaderboardsAndTheirDirections(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { _, client in
            let pia = try await client.streakMember("pia", anonymous: true, profile: false)
            let games = client.object(try await client.streak(.get, "/v1/streaksync/games", token: pia.token))["games"] as? [[String: Any]] ?? []
            #expect(games.count == 18)
            let ids = games.compactMap { $0["id"] as? String }
            #expect(ids == ids.sorted())
            #expect(games.filter { $0["lowerIsBetter"] as? Bool == false }.compactMap { $0["id"] as? String } == ["spelling-bee"])
            #expect(ids.contains("linkedin-mini-sudoku") && ids.contains("wordle") && ids.contains("framed"))
        }
    }
}
