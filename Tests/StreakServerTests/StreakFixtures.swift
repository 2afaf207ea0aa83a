@testable import KindredServer
@testable import KindredServerCore
@testable import StreakServer
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// A StreakSync account in a test.
struct StreakMember: Sendable {
    var session: SessionBody
    var displayName: String?

    var id: String { session.user.id }
    var token: String { session.accessToken }
}

/// Bodies, clocks and database reads shared by the StreakSync suites.
enum StreakFixtures {
    /// The instant most suites run at: noon UTC, so `2026-07-01` and `2026-07-02` are today
    /// somewhere on Earth and `2026-06-30` is past everywhere.
    static let noon = "2026-07-01T12:00:00Z"
    static let today = "2026-07-01"
    static let tomorrowInKiribati = "2026-07-02"
    static let yesterday = "2026-06-30"

    /// A test clock at `noon`.
    static func clock() throws -> TestClock { TestClock(start: try instant(noon)) }

    /// A JSON string literal of `text`.
    static func json(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }

    /// One result record as JSON.
    static func result(
        _ id: String, game: String = "wordle", puzzle: Int = 1_200, score: Int = 4, max: Int = 6, completed: Bool = true,
        date: String = today, recordedAt: String = "2026-07-01T08:00:00Z", updatedAt: String = "2026-07-01T08:00:00Z",
        fields: String? = #"{"guesses":["crane","slate"]}"#, deleted: Bool? = nil
    ) -> String {
        var parts = [
            #""id":\#(json(id))"#, #""gameId":\#(json(game))"#, #""puzzle":\#(puzzle)"#, #""score":\#(score)"#, #""max":\#(max)"#,
            #""completed":\#(completed)"#, #""localDate":\#(json(date))"#, #""recordedAt":"\#(recordedAt)""#,
            #""updatedAt":"\#(updatedAt)""#,
        ]
        if let fields { parts.append(#""fields":\#(fields)"#) }
        if let deleted { parts.append(#""deleted":\#(deleted)"#) }
        return "{\(parts.joined(separator: ","))}"
    }

    /// A batch body of result records.
    static func results(_ records: [String]) -> String { #"{"results":[\#(records.joined(separator: ","))]}"# }

    /// One achievement record as JSON.
    static func achievement(
        _ id: String, category: String = "streak-master", tier: Int = 2, progress: Int = 14,
        unlockedAt: String? = "2026-06-20T10:00:00Z", updatedAt: String = "2026-07-01T08:00:00Z"
    ) -> String {
        var parts = [
            #""id":\#(json(id))"#, #""category":\#(json(category))"#, #""tier":\#(tier)"#, #""progress":\#(progress)"#,
            #""updatedAt":"\#(updatedAt)""#,
        ]
        if let unlockedAt { parts.append(#""unlockedAt":"\#(unlockedAt)""#) }
        return "{\(parts.joined(separator: ","))}"
    }

    /// A batch body of achievement records.
    static func achievements(_ records: [String]) -> String { #"{"achievements":[\#(records.joined(separator: ","))]}"# }

    /// The body of `PUT /v1/streaksync/scores/…`.
    static func score(_ score: Int, max: Int = 6, completed: Bool = true, streak: Int = 3, timeZone: String? = nil) -> String {
        let zone = timeZone.map { #","timeZone":\#(json($0))"# } ?? ""
        return #"{"score":\#(score),"max":\#(max),"completed":\#(completed),"currentStreak":\#(streak)\#(zone)}"#
    }

    // MARK: - Database reads

    /// A realtime event on a user's channel.
    struct Event: Sendable {
        var type: String
        var json: String

        /// The payload as a JSON object.
        var data: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]) ?? [:] }
        /// The payload's string values.
        var strings: [String: String] { data.compactMapValues { $0 as? String } }
    }

    /// The events on `user:<userID>` of `type` (every type when nil), in order.
    static func events(_ type: String? = nil, for userID: String, on database: Database) async throws -> [Event] {
        var query = database.sql.select().columns("type", "data").from("kindred_realtime_events")
            .where("channel", .equal, "user:\(userID)")
        if let type { query = query.where("type", .equal, type) }
        return try await query.orderBy("seq").all().map { row in
            Event(type: try row.decode(column: "type", as: String.self), json: try row.decode(column: "data", as: String.self))
        }
    }

    /// The number of rows of `table` whose `column` is `value`.
    static func count(_ table: String, where column: String, is value: String, on database: Database) async throws -> Int {
        try await database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from(table)
            .where(SQLIdentifier(column), .equal, SQLBind(value)).first()?.decode(column: "n", as: Int.self) ?? -1
    }

    /// The readers of `publisher`'s scores, sorted.
    static func readers(of publisher: String, on database: Database) async throws -> [String] {
        try await database.sql.select().column("reader_id").from("streaksync_score_readers").where("publisher_id", .equal, publisher)
            .all().map { try $0.decode(column: "reader_id", as: String.self) }.sorted()
    }

    /// Makes `a` and `b` friends straight in the tables (for counts no test should reach by HTTP).
    static func insertFriendship(_ a: String, _ b: String, on database: Database) async throws {
        try await database.sql.insert(into: "streaksync_friendships")
            .columns("id", "pair_key", "sender_id", "recipient_id", "status", "created_at", "accepted_at")
            .values(
                SQLBind(UUID().uuidString.lowercased()), SQLBind(a < b ? "\(a):\(b)" : "\(b):\(a)"), SQLBind(a), SQLBind(b),
                SQLBind("accepted"), SQLBind(Int64(0)), SQLBind(Int64(0))
            ).run()
        try await database.sql.insert(into: "streaksync_score_readers").columns("reader_id", "publisher_id", "since")
            .values(SQLBind(a), SQLBind(b), SQLBind(Int64(0))).values(SQLBind(b), SQLBind(a), SQLBind(Int64(0))).run()
    }

    /// Inserts `count` accounts with a StreakSync profile straight into the tables; returns their ids.
    static func insertUsers(_ count: Int, prefix: String, on database: Database) async throws -> [String] {
        var ids: [String] = []
        for batch in stride(from: 0, to: count, by: 100) {
            let users = database.sql.insert(into: "kindred_users").columns("id", "app", "is_anonymous", "created_at", "updated_at")
            let profiles = database.sql.insert(into: "streaksync_profiles").columns("user_id", "display_name", "updated_at")
            let readers = database.sql.insert(into: "streaksync_score_readers").columns("reader_id", "publisher_id", "since")
            for index in batch..<min(batch + 100, count) {
                let id = "\(prefix)-\(index)"
                ids.append(id)
                users.values(SQLBind(id), SQLBind("streaksync"), SQLBind(true), SQLBind(Int64(0)), SQLBind(Int64(0)))
                profiles.values(SQLBind(id), SQLBind("Player \(index)"), SQLBind(Int64(0)))
                readers.values(SQLBind(id), SQLBind(id), SQLBind(Int64(0)))
            }
            try await users.run()
            try await profiles.run()
            try await readers.run()
        }
        return ids
    }
}

extension TestClientProtocol {
    /// A request of the StreakSync app.
    func streak(_ method: HTTPRequest.Method, _ path: String, token: String?, json: String? = nil) async throws -> TestResponse {
        try await call(method, path, app: "streaksync", token: token, json: json)
    }

    /// Signs up a StreakSync account (password, or anonymous) and sets its display name unless nil.
    func streakMember(_ name: String, displayName: String? = nil, anonymous: Bool = false, profile: Bool = true) async throws -> StreakMember {
        let session: SessionBody
        if anonymous {
            session = try await self.anonymous(app: "streaksync")
        } else {
            session = try await signUp("\(name)-\(UUID().uuidString.prefix(8).lowercased())@example.com", app: "streaksync")
        }
        var member = StreakMember(session: session)
        if profile {
            let shown = displayName ?? name.capitalized
            let response = try await streak(.put, "/v1/streaksync/profile", token: member.token, json: #"{"displayName":\#(StreakFixtures.json(shown))}"#)
            #expect(response.status == .ok, "\(response.text)")
            member.displayName = shown
        }
        return member
    }

    /// The JSON object of a response.
    func object(_ response: TestResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]) ?? [:]
    }

    /// `member`'s friend code.
    func friendCode(_ member: StreakMember) async throws -> String {
        let response = try await streak(.get, "/v1/streaksync/friend-code", token: member.token)
        #expect(response.status == .ok, "\(response.text)")
        return object(response)["code"] as? String ?? ""
    }

    /// `from` asks the owner of `to`'s code.
    func requestFriend(from: StreakMember, to: StreakMember) async throws -> TestResponse {
        try await streak(.post, "/v1/streaksync/friend-requests", token: from.token, json: #"{"code":"\#(try await friendCode(to))"}"#)
    }

    /// `from` asks `to` (expecting 201 pending); returns the friendship's id.
    func pendingFriendship(from: StreakMember, to: StreakMember) async throws -> String {
        let response = try await requestFriend(from: from, to: to)
        #expect(response.status == .created, "\(response.text)")
        #expect(object(response)["status"] as? String == "pending")
        return object(response)["id"] as? String ?? ""
    }

    /// Makes `a` and `b` friends (a asks, b accepts); returns the friendship's id.
    @discardableResult
    func befriend(_ a: StreakMember, _ b: StreakMember) async throws -> String {
        let id = try await pendingFriendship(from: a, to: b)
        let accepted = try await streak(.post, "/v1/streaksync/friendships/\(id)/accept", token: b.token)
        #expect(accepted.status == .ok, "\(accepted.text)")
        return id
    }

    /// `member` publishes a score.
    @discardableResult
    func publish(
        _ member: StreakMember, game: String = "wordle", date: String = StreakFixtures.today, score: Int, max: Int = 6,
        completed: Bool = true, streak currentStreak: Int = 3, timeZone: String? = nil
    ) async throws -> TestResponse {
        try await streak(
            .put, "/v1/streaksync/scores/\(game)/\(date)", token: member.token,
            json: StreakFixtures.score(score, max: max, completed: completed, streak: currentStreak, timeZone: timeZone)
        )
    }

    /// `member`'s leaderboard of `game` on `date`.
    func leaderboard(_ member: StreakMember, game: String = "wordle", date: String = StreakFixtures.today) async throws -> [String: Any] {
        let response = try await streak(.get, "/v1/streaksync/leaderboards/\(game)/\(date)", token: member.token)
        #expect(response.status == .ok, "\(response.text)")
        return object(response)
    }

    /// The user ids of a leaderboard's entries, in rank order, and of its "hasn't played yet" list.
    func board(_ member: StreakMember, game: String = "wordle", date: String = StreakFixtures.today) async throws
        -> (entries: [String], ranks: [Int], notPlayed: [String])
    {
        let board = try await leaderboard(member, game: game, date: date)
        let entries = board["entries"] as? [[String: Any]] ?? []
        return (
            entries.compactMap { ($0["user"] as? [String: Any])?["id"] as? String }, entries.compactMap { $0["rank"] as? Int },
            (board["notPlayed"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        )
    }
}

/// Asserts a response's status and error code in one line.
func expectRefusal(
    _ response: TestResponse, _ status: Int, _ code: String, _ what: String = "", sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(Int(response.status.code) == status, "\(what) \(response.text)", sourceLocation: sourceLocation)
    #expect(response.errorCode == code, "\(what) \(response.text)", sourceLocation: sourceLocation)
}
