import ArgumentParser
import Foundation
import StreakClient
import StreakKit

/// `kindred streaks sync`: upload the offline queue, pull the other devices' changes.
struct StreaksSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Upload what waits (results, achievements, day scores) in order, then pull other devices' changes.")

    @OptionGroup var options: StreaksOptions

    func run() async throws {
        let (device, _) = try options.device()
        try await options.run {
            let report = try await device.sync()
            var lines = [
                "uploaded \(report.uploadedResults) results, \(report.uploadedAchievements) achievements, \(report.publishedScores) scores; "
                    + "pulled \(report.pulledResults) results, \(report.pulledAchievements) achievements; \(report.stillPending) waiting"
            ]
            lines += report.newlyUnlocked.map(StreaksFormat.line)
            options.output(lines.joined(separator: "\n"), json: [
                "uploadedResults": report.uploadedResults, "uploadedAchievements": report.uploadedAchievements,
                "publishedScores": report.publishedScores, "droppedScores": report.droppedScores,
                "pulledResults": report.pulledResults, "pulledAchievements": report.pulledAchievements,
                "rejectedResults": report.rejectedResults, "newAchievements": report.newlyUnlocked.map(StreaksFormat.object),
                "stillPending": report.stillPending,
            ])
        }
    }
}

/// `kindred streaks code`: this account's friend code.
struct StreaksCodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "code", abstract: "This account's six-character friend code.")

    @OptionGroup var options: StreaksOptions

    func run() async throws {
        let (device, _) = try options.device()
        try await options.run {
            let code = try await device.friendCode()
            options.output(code.code, json: ["code": code.code, "createdAt": iso(code.createdAt)])
        }
    }
}

/// `kindred streaks friend add CODE`.
struct StreaksFriendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "friend", abstract: "Add a friend by their code.", subcommands: [StreaksFriendAddCommand.self])
}

/// `kindred streaks friend add CODE`: a friend request (accepted at once when they asked you too).
struct StreaksFriendAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Send a friend request to the owner of a code.")

    @OptionGroup var options: StreaksOptions
    @Argument(help: "Their friend code (any case; spaces and - are ignored).") var code: String

    func run() async throws {
        let (device, _) = try options.device()
        try await options.run {
            let friendship = try await device.addFriend(code: code)
            let name = friendship.to.displayName ?? friendship.to.id
            options.output(
                friendship.status == .accepted ? "you and \(name) are friends" : "request sent to \(name) (id \(friendship.id))",
                json: StreaksSocialFormat.object(friendship))
        }
    }
}

/// `kindred streaks friends`: friends and requests in and out.
struct StreaksFriendsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "friends", abstract: "Friends, and friend requests in and out (with their ids).")

    @OptionGroup var options: StreaksOptions

    func run() async throws {
        let (device, _) = try options.device()
        try await options.run {
            let friends = try await device.friends()
            var lines = friends.friends.map { "friend: \($0.user.displayName ?? $0.user.id) (id \($0.friendshipId))" }
            lines += friends.incoming.map { "asks you: \($0.from.displayName ?? $0.from.id) (id \($0.id))" }
            lines += friends.outgoing.map { "you asked: \($0.to.displayName ?? $0.to.id) (id \($0.id))" }
            options.output(lines.isEmpty ? "no friends yet" : lines.joined(separator: "\n"), json: [
                "friends": friends.friends.map {
                    ["friendshipId": $0.friendshipId, "user": StreaksSocialFormat.object($0.user), "since": iso($0.since)] as [String: Any]
                },
                "incoming": friends.incoming.map(StreaksSocialFormat.object),
                "outgoing": friends.outgoing.map(StreaksSocialFormat.object),
            ])
        }
    }
}

/// `kindred streaks accept ID`.
struct StreaksAcceptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "accept", abstract: "Accept a friend request sent to you.")

    @OptionGroup var options: StreaksOptions
    @Argument(help: "The request's id (from `friends`).") var id: String

    func run() async throws {
        let (device, _) = try options.device()
        try await options.run {
            let friendship = try await device.accept(friendship: id)
            options.output("you and \(friendship.from.displayName ?? friendship.from.id) are friends", json: StreaksSocialFormat.object(friendship))
        }
    }
}

/// `kindred streaks remove ID`.
struct StreaksRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a friend, or withdraw or decline a request.")

    @OptionGroup var options: StreaksOptions
    @Argument(help: "The friendship's id (from `friends`).") var id: String

    func run() async throws {
        let (device, _) = try options.device()
        try await options.run {
            try await device.remove(friendship: id)
            options.output("removed", json: ["removed": id])
        }
    }
}

/// `kindred streaks board GAME [--day YYYY-MM-DD] [--watch [--count N]]`.
struct StreaksBoardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board",
        abstract: "A game's leaderboard for a day among you and your friends (sync first to publish your score).",
        discussion: """
            With --watch the board is printed now and again each time it changes (a friend publishes a \
            score of that game and day, a friendship starts or ends), over the account's realtime \
            channel, until interrupted or --count boards were printed; with --json one document per line.
            """
    )

    @OptionGroup var options: StreaksOptions
    @Argument(help: "The game's id (see `kindred streaks games`).") var game: String
    @Option(help: "The day, YYYY-MM-DD (default: today in the profile's time zone).") var day: String?
    @Flag(help: "Keep printing the board each time it changes.") var watch = false
    @Option(help: "With --watch: stop after this many boards (the first is the board now).") var count: Int?

    func validate() throws {
        if let count {
            guard watch else { throw ValidationError("--count needs --watch") }
            guard count >= 1 else { throw ValidationError("--count must be at least 1") }
        }
    }

    func run() async throws {
        let catalog = GameCatalog()
        guard catalog.game(GameID(rawValue: game)) != nil else {
            throw CommandFailure("unknown game \"\(game)\" (see `kindred streaks games`)")
        }
        var chosen: LocalDay?
        if let day {
            guard let parsed = LocalDay(day) else { throw CommandFailure("--day: \"\(day)\" is not a YYYY-MM-DD date") }
            chosen = parsed
        }
        let (device, _) = try options.device()
        try await options.run {
            let date = try chosen ?? LocalDay(Date(), in: options.timeZone(device.store))
            guard watch else {
                print(try await device.leaderboard(game: GameID(rawValue: game), day: date), date: date)
                return
            }
            var printed = 0
            for try await board in device.leaderboardUpdates(game: GameID(rawValue: game), day: date) {
                if printed > 0, !options.json { StandardIO.writeLine("") }
                print(board, date: date)
                printed += 1
                if let count, printed >= count { break }
            }
        }
    }

    private func print(_ board: StreakDevice.Leaderboard, date: LocalDay) {
        var lines = board.entries.map {
            "\($0.rank). \($0.user.displayName ?? $0.user.id): \($0.completed ? String($0.score) : "X") 🔥\($0.currentStreak)"
        }
        lines += board.notPlayed.map { "—  \($0.displayName ?? $0.id): not played" }
        options.output(lines.isEmpty ? "nobody has played \(game) on \(date)" : lines.joined(separator: "\n"), json: [
            "gameId": board.gameId, "localDate": board.localDate, "lowerIsBetter": board.lowerIsBetter,
            "entries": board.entries.map {
                [
                    "rank": $0.rank, "user": StreaksSocialFormat.object($0.user), "score": $0.score, "max": $0.max,
                    "completed": $0.completed, "currentStreak": $0.currentStreak, "publishedAt": iso($0.publishedAt),
                ] as [String: Any]
            },
            "notPlayed": board.notPlayed.map(StreaksSocialFormat.object),
        ])
    }
}

/// JSON forms of the server's people and friendships.
enum StreaksSocialFormat {
    static func object(_ person: StreakDevice.Person) -> [String: Any] {
        ["id": person.id, "displayName": orNull(person.displayName)]
    }

    static func object(_ friendship: StreakDevice.Friendship) -> [String: Any] {
        [
            "id": friendship.id, "status": friendship.status.rawValue, "from": object(friendship.from), "to": object(friendship.to),
            "createdAt": iso(friendship.createdAt), "acceptedAt": iso(friendship.acceptedAt),
        ]
    }
}
