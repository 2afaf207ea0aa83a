@testable import KindredServer
@testable import KindredServerCore
@testable import StreakServer
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredTestSupport
import SQLKit
import Testing

/// Every route of StreakSync's contract against each kind of caller, as a table, on both backends.
///
/// The world: Pia (`publisher`) synced a result and an achievement and published Wordle scores
/// for today and yesterday. Fred (`friend`) asked Pia and she accepted; Pen (`pendingFriend`)
/// asked Pia, unanswered. Sam (`stranger`) and Ann (`anonymous`, an anonymous account) have
/// profiles and no tie to Pia. Each caller runs the table in order on a fresh world, so a row
/// may see what an earlier row of the same caller changed (the end of the table accepts Pen's
/// request and ends both friendships).
///
/// The seed's rules, row by row: scores are read only by their publisher and the publisher's
/// accepted friends (the leaderboard rows, before and after the friendships end); a friendship is
/// created only by its sender (the caller of a request is always its sender) and accepted only by
/// its recipient; either side removes it; nobody reads another's synced results or achievements.
/// After the table, the friendships' user fields are what they were created with.
@Suite struct StreakAuthorizationMatrixTests {
    enum Caller: Int, CaseIterable, CustomTestStringConvertible, Sendable {
        case publisher, friend, pendingFriend, stranger, anonymous
        /// A Closer account calling with its own app's header.
        case otherApp
        /// A Closer account's token presented as StreakSync's.
        case otherAppsTokenAsStreakSync
        case noToken
        var testDescription: String { "\(self)" }
    }

    /// One route: method, path, body, and the answer for publisher, friend, pending friend,
    /// stranger and anonymous account: "status [code] [+X] [-X]", where `+X` / `-X` say the body
    /// does / does not contain X (after substitution); then for the other app's caller, its token
    /// sent as StreakSync's, and no token.
    ///
    /// Placeholders: `{P}` Pia's id, `{F}` Fred's, `{N}` Pen's, `{FP}` Fred and Pia's friendship,
    /// `{PP}` Pen's request to Pia, `{PC}` Pia's friend code, `{TC}` a bystander's code, `{NEW}` a
    /// fresh record id, `{TODAY}` / `{YESTERDAY}` the dates.
    struct Route: Sendable {
        var method: HTTPRequest.Method
        var path: String
        var body: String?
        var expected: [String]
        var otherApp = "403 wrong_app"
        var otherAppsTokenAsStreakSync = "401 invalid_token"
        var noToken = "401 missing_token"

        func answer(for caller: Caller) -> String {
            switch caller {
            case .otherApp: otherApp
            case .otherAppsTokenAsStreakSync: otherAppsTokenAsStreakSync
            case .noToken: noToken
            default: expected[caller.rawValue]
            }
        }
    }

    static func all(_ answer: String) -> [String] { Array(repeating: answer, count: 5) }
    static let noFriendship = "404 friendship_not_found"
    static let piasResult = "pia-secret-result"
    static let piasAchievement = "achievement.matrix-pia"
    /// Readable by Pia and her friend only.
    static let piaOnlyForFriends = ["200 +{P}", "200 +{P}", "200 -{P}", "200 -{P}", "200 -{P}"]

    static let routes: [Route] = [
        Route(method: .get, path: "/v1/streaksync/profile", expected: all("200")),
        Route(method: .put, path: "/v1/streaksync/profile", body: #"{"displayName":"Matrix Player"}"#, expected: all("200")),
        Route(method: .get, path: "/v1/streaksync/games", expected: all("200 +spelling-bee")),
        // Sync: each caller writes and reads only its own records.
        Route(
            method: .post, path: "/v1/streaksync/results", body: StreakFixtures.results([StreakFixtures.result("{NEW}")]),
            expected: all("200")
        ),
        Route(
            method: .get, path: "/v1/streaksync/results",
            expected: ["200 +\(piasResult)"] + Array(repeating: "200 -\(piasResult) +{NEW}", count: 4)
        ),
        Route(
            method: .post, path: "/v1/streaksync/achievements",
            body: StreakFixtures.achievements([StreakFixtures.achievement("{NEW}")]), expected: all("200")
        ),
        Route(
            method: .get, path: "/v1/streaksync/achievements",
            expected: ["200 +\(piasAchievement)"] + Array(repeating: "200 -\(piasAchievement) +{NEW}", count: 4)
        ),
        // Friends.
        Route(method: .get, path: "/v1/streaksync/friend-code", expected: all("200")),
        Route(
            method: .get, path: "/v1/streaksync/friends",
            expected: ["200 +{F} +{N}", "200 +{P} -{N}", "200 +{P} -{F}", "200 -{P}", "200 -{P}"]
        ),
        Route(
            method: .post, path: "/v1/streaksync/friend-requests", body: #"{"code":"{PC}"}"#,
            expected: ["422 own_friend_code", "409 already_friends", "409 friend_request_exists", "201 +{P}", "201 +{P}"]
        ),
        Route(method: .post, path: "/v1/streaksync/friend-requests", body: #"{"code":"{TC}"}"#, expected: all("201 +pending")),
        // Scores and leaderboards.
        Route(
            method: .put, path: "/v1/streaksync/scores/wordle/{TODAY}", body: StreakFixtures.score(3, timeZone: "UTC"),
            expected: all("200")
        ),
        Route(method: .put, path: "/v1/streaksync/scores/not-a-game/{TODAY}", body: StreakFixtures.score(3), expected: all("404 unknown_game")),
        Route(method: .get, path: "/v1/streaksync/leaderboards/wordle/{TODAY}", expected: piaOnlyForFriends),
        Route(method: .get, path: "/v1/streaksync/leaderboards/wordle/{YESTERDAY}", expected: piaOnlyForFriends),
        // Answering: only the recipient accepts; either side removes.
        Route(
            method: .post, path: "/v1/streaksync/friendships/{FP}/accept",
            expected: ["409 already_friends", "409 already_friends", noFriendship, noFriendship, noFriendship]
        ),
        Route(
            method: .post, path: "/v1/streaksync/friendships/{PP}/accept",
            expected: ["200 +accepted", noFriendship, "403 not_recipient", noFriendship, noFriendship]
        ),
        Route(method: .delete, path: "/v1/streaksync/friendships/{PP}", expected: ["204", noFriendship, "204", noFriendship, noFriendship]),
        Route(method: .delete, path: "/v1/streaksync/friendships/{FP}", expected: ["204", "204", noFriendship, noFriendship, noFriendship]),
        // Once the friendship has ended, Fred reads none of Pia's scores, nor she his.
        Route(
            method: .get, path: "/v1/streaksync/leaderboards/wordle/{TODAY}",
            expected: ["200 +{P} -{F}", "200 -{P}", "200 -{P}", "200 -{P}", "200 -{P}"]
        ),
        Route(method: .post, path: "/v1/streaksync/friendships/no-such-friendship/accept", expected: all(noFriendship)),
        Route(method: .delete, path: "/v1/streaksync/friendships/no-such-friendship", expected: all(noFriendship)),
    ]

    /// The contract's operations, each of which the table calls at least once.
    static let contractOperations: Set<String> = [
        "GET /v1/streaksync/profile", "PUT /v1/streaksync/profile", "GET /v1/streaksync/games",
        "POST /v1/streaksync/results", "GET /v1/streaksync/results", "POST /v1/streaksync/achievements",
        "GET /v1/streaksync/achievements", "GET /v1/streaksync/friend-code", "POST /v1/streaksync/friend-requests",
        "GET /v1/streaksync/friends", "POST /v1/streaksync/friendships/{friendshipId}/accept",
        "DELETE /v1/streaksync/friendships/{friendshipId}", "PUT /v1/streaksync/scores/{gameId}/{date}",
        "GET /v1/streaksync/leaderboards/{gameId}/{date}",
    ]

    @Test func theTableCoversEveryOperationOfTheContract() throws {
        let operations = KindredServerTestSupport.contractOperations(StreakContract.document)
        #expect(operations == Self.contractOperations)
        let called = Set(Self.routes.map { route in
            let path = String(route.path.split(separator: "?").first ?? "")
                .replacingOccurrences(of: #"/friendships/[^/]+"#, with: "/friendships/{friendshipId}", options: .regularExpression)
                .replacingOccurrences(of: #"/(scores|leaderboards)/[^/]+/[^/]+$"#, with: "/$1/{gameId}/{date}", options: .regularExpression)
            return "\(route.method.rawValue) \(path)"
        })
        #expect(called == Self.contractOperations)
    }

    /// The world every caller runs the table in.
    struct World: Sendable {
        var pia: StreakMember, fred: StreakMember, pen: StreakMember, sam: StreakMember, ann: StreakMember
        var closer: SessionBody
        var fp: String, pp: String, piaCode: String, bystanderCode: String
    }

    static func world(_ client: any TestClientProtocol) async throws -> World {
        let pia = try await client.streakMember("pia")
        let fred = try await client.streakMember("fred")
        let pen = try await client.streakMember("pen")
        let sam = try await client.streakMember("sam")
        let ann = try await client.streakMember("ann", anonymous: true)
        let bystander = try await client.streakMember("bystander", profile: false)
        let closer = try await client.signUp("matrix-closer-\(UUID().uuidString.prefix(8))@example.com")
        let fp = try await client.befriend(fred, pia)
        let pp = try await client.pendingFriendship(from: pen, to: pia)
        for (path, body) in [
            ("/v1/streaksync/results", StreakFixtures.results([StreakFixtures.result(piasResult)])),
            ("/v1/streaksync/achievements", StreakFixtures.achievements([StreakFixtures.achievement(piasAchievement)])),
        ] {
            let synced = try await client.streak(.post, path, token: pia.token, json: body)
            #expect(synced.status == .ok, "\(synced.text)")
        }
        for date in [StreakFixtures.today, StreakFixtures.yesterday] {
            let published = try await client.publish(pia, date: date, score: 4)
            #expect(published.status == .ok, "\(published.text)")
        }
        return World(
            pia: pia, fred: fred, pen: pen, sam: sam, ann: ann, closer: closer, fp: fp, pp: pp,
            piaCode: try await client.friendCode(pia), bystanderCode: try await client.friendCode(bystander)
        )
    }

    @Test(arguments: Backend.all, Caller.allCases)
    func everyRouteAnswersEachCallerAsTheRulesSay(backend: Backend, caller: Caller) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { application, client in
            let world = try await Self.world(client)
            let member: StreakMember? = switch caller {
            case .publisher: world.pia
            case .friend: world.fred
            case .pendingFriend: world.pen
            case .stranger: world.sam
            case .anonymous: world.ann
            case .otherApp, .otherAppsTokenAsStreakSync, .noToken: nil
            }
            let token: String? = switch caller {
            case .otherApp, .otherAppsTokenAsStreakSync: world.closer.accessToken
            case .noToken: nil
            default: member?.token
            }
            let app = caller == .otherApp ? "closer" : "streaksync"
            let fresh = "matrix-\(caller)-record"
            let substitutions = [
                "{FP}": world.fp, "{PP}": world.pp, "{PC}": world.piaCode, "{TC}": world.bystanderCode, "{P}": world.pia.id,
                "{F}": world.fred.id, "{N}": world.pen.id, "{NEW}": fresh, "{TODAY}": StreakFixtures.today,
                "{YESTERDAY}": StreakFixtures.yesterday,
            ]
            func substituted(_ text: String) -> String {
                substitutions.reduce(text) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
            }
            for route in Self.routes {
                let response = try await client.call(
                    route.method, substituted(route.path), app: app, token: token, json: route.body.map(substituted)
                )
                let expected = route.answer(for: caller).split(separator: " ").map(String.init)
                let what = "\(route.method) \(route.path) as \(caller)"
                let text = response.text
                #expect(Int(response.status.code) == Int(expected[0]), "\(what): \(response.status.code) \(text.prefix(300))")
                let code = expected.dropFirst().first { !$0.hasPrefix("+") && !$0.hasPrefix("-") }
                #expect(response.errorCode == code, "\(what): \(text.prefix(300))")
                for check in expected.dropFirst() where check.hasPrefix("+") || check.hasPrefix("-") {
                    let needle = substituted(String(check.dropFirst()))
                    #expect(text.contains(needle) == check.hasPrefix("+"), "\(what): \(check) in \(text.prefix(400))")
                }
            }
            // Nobody wrote to Pia's records but Pia.
            let piasResults = try await StreakFixtures.count("streaksync_results", where: "user_id", is: world.pia.id, on: application.database)
            #expect(piasResults == (caller == .publisher ? 2 : 1))
            // The user fields of the friendships that are left are those they were created with.
            for row in try await application.database.sql.select().columns("id", "sender_id", "recipient_id")
                .from("streaksync_friendships").all()
            {
                let pair = (try row.decode(column: "sender_id", as: String.self), try row.decode(column: "recipient_id", as: String.self))
                switch try row.decode(column: "id", as: String.self) {
                case world.fp: #expect(pair == (world.fred.id, world.pia.id))
                case world.pp: #expect(pair == (world.pen.id, world.pia.id))
                default: #expect(pair.0 == member?.id, "a request not sent by the caller")
                }
            }
        }
    }

    @Test(arguments: Backend.all)
    func aStrangerReadsNoScoreOfAnyoneButItself(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { application, client in
            let world = try await Self.world(client)
            // Sam's own score appears on his board alone; Pia's readers are Pia and Fred.
            #expect(try await client.publish(world.sam, score: 2).status == .ok)
            let sams = try await client.board(world.sam)
            #expect(sams.entries == [world.sam.id] && sams.notPlayed.isEmpty)
            #expect(try await StreakFixtures.readers(of: world.pia.id, on: application.database) == [world.pia.id, world.fred.id].sorted())
            // Pen's pending request gives her nothing to read.
            let pens = try await client.board(world.pen)
            #expect(pens.entries.isEmpty && pens.notPlayed.isEmpty)
            // Fred sees Pia, and Pia sees Fred among those who have not played yet.
            #expect(try await client.board(world.fred).entries == [world.pia.id])
            let pias = try await client.board(world.pia)
            #expect(pias.entries == [world.pia.id] && pias.notPlayed == [world.fred.id])
        }
    }

    /// The shared callers (`DomainPolicyCaller`: another app's session, another app's token,
    /// a revoked session, a disabled account, no token) on every route of the table that needs
    /// a session.
    @Test(arguments: Backend.all, DomainPolicyCaller.allCases)
    func everyRouteRefusesTheSharedPolicyCallers(backend: Backend, caller: DomainPolicyCaller) async throws {
        // Friend codes of the contract's length (a made-up id would break its `maxLength`, which is
        // checked before the caller).
        let dates = ["{TODAY}": StreakFixtures.today, "{YESTERDAY}": StreakFixtures.yesterday, "{PC}": "ABCD2345", "{TC}": "ABCD2345"]
        let operations = Self.routes.filter { $0.noToken == "401 missing_token" }.map {
            (method: $0.method, path: DomainPolicyCaller.filled($0.path, dates), body: $0.body.map { DomainPolicyCaller.filled($0, dates) })
        }
        try await DomainPolicyCaller.check(operations, app: "streaksync", as: caller, on: backend)
    }
}
