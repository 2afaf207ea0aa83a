import Foundation
import KindredClient
import StreakAPI
import StreakClient
import StreakKit

// kindred-streak-bench --leaderboard SERVER_URL [FRIENDS] [READS] [CONCURRENCY]
//
// The leaderboard read of a user with FRIENDS accepted friends (default 500, the server's cap),
// every one of whom has published today's Wordle score, against a running `kindred serve`.
// Setup (not timed): FRIENDS + 1 accounts sign up, each friend asks with the reader's friend code
// and the reader accepts (in rounds of at most 100: the cap on pending requests), every friend and
// the reader publish a score. Timed: READS leaderboard reads by the reader through the generated
// client (decoding the FRIENDS + 1 ranked entries), CONCURRENCY at a time. Prints `setup …` when
// the timed phase starts, then `reads/s N`, `p50_ms`, `p99_ms` and `entries` for
// scripts/bench-streak-board to compare with the bare Hummingbird server.

enum LeaderboardBench {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func run(_ arguments: [String]) async {
        do {
            try await measure(arguments)
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("kindred-streak-bench --leaderboard: \(error)\n".utf8))
            exit(1)
        }
    }

    /// Runs `body` for 0..<count, at most `width` at a time.
    static func forEach(_ count: Int, width: Int, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            while next < min(width, count) { let i = next; group.addTask { try await body(i) }; next += 1 }
            while try await group.next() != nil {
                if next < count { let i = next; group.addTask { try await body(i) }; next += 1 }
            }
        }
    }

    static func measure(_ arguments: [String]) async throws {
        guard let first = arguments.first, let server = URL(string: first) else {
            throw Failure(description: "usage: kindred-streak-bench --leaderboard SERVER_URL [FRIENDS] [READS] [CONCURRENCY]")
        }
        let number = { (index: Int, fallback: Int) in arguments.count > index ? Int(arguments[index]) ?? fallback : fallback }
        let friends = number(1, 500), reads = number(2, 2_000), concurrency = number(3, 16)
        let run = UUID().uuidString.prefix(8).lowercased()
        let utc = TimeZone(identifier: "UTC")!
        let today = LocalDay(Date(), in: utc)

        func device() throws -> StreakDevice {
            StreakDevice(session: KindredSession(serverURL: server, app: .streaksync, store: MemoryTokenStore()), store: try StreakStore.inMemory())
        }
        let reader = try device()
        let others = try (0..<friends).map { _ in try device() }
        try await reader.signUp(email: "reader-\(run)@bench.example", password: "bench password \(run)", displayName: "Reader")
        try await forEach(friends, width: 16) { index in
            try await others[index].signUp(
                email: "friend-\(run)-\(index)@bench.example", password: "bench password \(run)", displayName: "Friend \(index)")
        }
        let code = try await reader.friendCode().code
        for start in stride(from: 0, to: friends, by: 100) {
            let round = Array(start..<min(start + 100, friends))
            let ids = LockedList<String>()
            try await forEach(round.count, width: 16) { offset in
                ids.append(try await others[round[offset]].addFriend(code: code).id)
            }
            let pending = ids.items
            try await forEach(pending.count, width: 16) { offset in _ = try await reader.accept(friendship: pending[offset]) }
        }
        let everyone = others + [reader]
        try await forEach(everyone.count, width: 16) { index in
            let score = 1 + index % 6
            let body = StreakAPI.Components.Schemas.StreakSyncScorePublish(
                score: score, max: 6, completed: index % 7 != 0, currentStreak: index % 30, timeZone: "UTC")
            let output = try await everyone[index].session.authorizedCall(with: everyone[index].session.streakClient) {
                try await $0.publishStreakSyncScore(
                    path: .init(gameId: "wordle", date: today.description), headers: .init(xKindredApp: .streaksync), body: .json(body))
            }
            guard case .ok = output else { throw Failure(description: "publishing a score: \(output)") }
        }
        let check = try await reader.leaderboard(game: .wordle, day: today)
        guard check.entries.count == friends + 1 else {
            throw Failure(description: "the board has \(check.entries.count) entries, expected \(friends + 1)")
        }
        print("setup: \(friends) friends, \(check.entries.count) entries; timed: \(reads) reads, \(concurrency) at a time")

        let latencies = LockedList<Double>()
        let clock = ContinuousClock()
        let started = clock.now
        try await forEach(reads, width: concurrency) { _ in
            let begin = clock.now
            let board = try await reader.leaderboard(game: .wordle, day: today)
            guard board.entries.count == friends + 1 else { throw Failure(description: "a short board: \(board.entries.count)") }
            let elapsed = clock.now - begin
            latencies.append(Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        let total = clock.now - started
        let seconds = Double(total.components.seconds) + Double(total.components.attoseconds) / 1e18
        let sorted = latencies.items.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        print(String(format: "reads/s %.1f", Double(reads) / seconds))
        print(String(format: "p50_ms %.2f", percentile(0.50)))
        print(String(format: "p99_ms %.2f", percentile(0.99)))
        print("entries \(friends + 1)")
    }
}

/// A list appended to from concurrent tasks.
final class LockedList<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Element] = []

    func append(_ element: Element) { lock.withLock { storage.append(element) } }
    var items: [Element] { lock.withLock { storage } }
}
