@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// `GET …/history` pages: newest first, strictly before `before`, `nextBefore` only while more
/// dates exist; a malformed cursor or limit is a 400 and the couple's history is its members' only.
@Suite struct CloserHistoryPagingTests {
    /// A couple with seven consecutive dates (the newest today's), both members' answers on each.
    struct Seeded {
        var pair: CloserPair
        /// Newest first.
        var dates: [String]
        /// The sealed payload of each answer, by "userId date".
        var payloads: [String: String]
    }

    static func seed(_ app: TestApplication, _ client: some TestClientProtocol, prefix: String) async throws -> Seeded {
        let pair = try await client.closerPair(prefix)
        let today = client.object(try await client.call(.post, "/v1/closer/couples/\(pair.coupleID)/today", token: pair.inviter.accessToken))
        let newest = try #require(today["date"] as? String), question = try #require(today["questionId"] as? String)
        let dates = (0..<7).map { CloserRhythmTests.date(newest, plus: -$0) }
        // Earlier dates as the daily job would have written them, still open for answers.
        let expires = Int64(app.clock.now().timeIntervalSince1970 * 1000) + 86_400_000
        for date in dates.dropFirst() {
            try await app.database.sql.insert(into: "closer_days")
                .columns("couple_id", "date_key", "question_id", "assigned_at", "expires_at")
                .values(SQLBind(pair.coupleID), SQLBind(date), SQLBind(question), SQLBind(expires - 86_400_000), SQLBind(expires))
                .run()
        }
        var payloads: [String: String] = [:]
        for date in dates {
            for member in [pair.inviter, pair.acceptor] {
                let body = CloserFixtures.sealedAnswer()
                let put = try await client.call(
                    .put, "/v1/closer/couples/\(pair.coupleID)/days/\(date)/answers/\(member.user.id)", token: member.accessToken, json: body
                )
                #expect(put.status == .created, "\(put.text)")
                payloads["\(member.user.id) \(date)"] = client.object(put)["encryptedPayload"] as? String
            }
        }
        return Seeded(pair: pair, dates: dates, payloads: payloads)
    }

    @Test(arguments: Backend.all)
    func pagesAreDisjointNewestFirstAndEndWithoutACursor(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { app, client in
            let seeded = try await Self.seed(app, client, prefix: "pages")
            let pair = seeded.pair
            let path = "/v1/closer/couples/\(pair.coupleID)/history"
            for (token, viewer) in [(pair.inviter.accessToken, pair.inviter.user.id), (pair.acceptor.accessToken, pair.acceptor.user.id)] {
                var pages: [[String]] = []
                var cursors: [String?] = []
                var before: String?
                repeat {
                    let response = try await client.call(.get, path + "?limit=3" + (before.map { "&before=\($0)" } ?? ""), token: token)
                    #expect(response.status == .ok, "\(response.text)")
                    let page = client.object(response)
                    let days = page["days"] as? [[String: Any]] ?? []
                    pages.append(days.compactMap { $0["date"] as? String })
                    before = page["nextBefore"] as? String
                    cursors.append(before)
                    // Both answers of every date, with their content (both answered).
                    for day in days {
                        let date = day["date"] as? String ?? ""
                        let answers = day["answers"] as? [[String: Any]] ?? []
                        let shown = Dictionary(answers.map { ($0["userId"] as? String ?? "", $0["encryptedPayload"] as? String) }) { first, _ in first }
                        #expect(shown.count == 2, "\(date) for \(viewer)")
                        for member in [pair.inviter, pair.acceptor] {
                            #expect(shown[member.user.id] == seeded.payloads["\(member.user.id) \(date)"], "\(date)")
                        }
                        #expect(answers.allSatisfy { $0["contentWithheld"] as? Bool == false })
                    }
                } while before != nil && pages.count < 10
                let d = seeded.dates
                #expect(pages == [[d[0], d[1], d[2]], [d[3], d[4], d[5]], [d[6]]])
                #expect(cursors == [d[2], d[5], nil])
            }

            // A page that ends exactly at the oldest date has no cursor; the default limit (30) takes all.
            let exact = client.object(try await client.call(.get, path + "?limit=4&before=\(seeded.dates[2])", token: pair.inviter.accessToken))
            #expect((exact["days"] as? [[String: Any]])?.compactMap { $0["date"] as? String } == Array(seeded.dates[3...6]))
            #expect(exact["nextBefore"] == nil)
            let all = client.object(try await client.call(.get, path, token: pair.acceptor.accessToken))
            #expect((all["days"] as? [[String: Any]])?.compactMap { $0["date"] as? String } == seeded.dates)
            #expect(all["nextBefore"] == nil)
            let beforeAll = client.object(try await client.call(.get, path + "?before=\(seeded.dates[6])", token: pair.acceptor.accessToken))
            #expect((beforeAll["days"] as? [Any])?.isEmpty == true)
            #expect(beforeAll["nextBefore"] == nil)
        }
    }

    @Test(arguments: Backend.all)
    func badCursorsAndLimitsAreRefusedAndStrangersSeeNothing(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { app, client in
            let seeded = try await Self.seed(app, client, prefix: "badpage")
            let path = "/v1/closer/couples/\(seeded.pair.coupleID)/history"
            let token = seeded.pair.inviter.accessToken
            for cursor in ["yesterday", "2026-13-01", "2026-02-30", "2026-1-01", "%2B026-01-01", "2026-%2B1-01", "2026-01-01x"] {
                let response = try await client.call(.get, path + "?before=\(cursor)", token: token)
                #expect(response.status == .badRequest, "before=\(cursor)")
                // The contract's pattern refuses most (naming `query.before`); the handler the impossible dates.
                #expect(
                    response.text == envelope("bad_request", "before must be a date (YYYY-MM-DD)")
                        || (response.errorCode == "bad_request" && response.text.contains("invalid request: query.before ")),
                    "before=\(cursor): \(response.text)"
                )
            }
            for limit in ["0", "101", "-1"] {
                let response = try await client.call(.get, path + "?limit=\(limit)", token: token)
                #expect(response.status == .badRequest, "limit=\(limit)")
                #expect(response.errorCode == "bad_request" && response.text.contains("invalid request: query.limit is "), "limit=\(limit): \(response.text)")
            }
            let notANumber = try await client.call(.get, path + "?limit=three", token: token)
            #expect(notANumber.status == .badRequest)
            #expect(notANumber.errorCode == "bad_request")
            let largest = client.object(try await client.call(.get, path + "?limit=100", token: token))
            #expect((largest["days"] as? [Any])?.count == 7)

            // Not a member: the couple does not exist for them (the authorization matrix's 404).
            let stranger = try await client.signUp("badpage-c@example.com")
            let anonymous = try await client.anonymous()
            for caller in [stranger, anonymous] {
                let response = try await client.call(.get, path + "?limit=3", token: caller.accessToken)
                #expect(response.status == .notFound)
                #expect(response.text == envelope("couple_not_found", "no such couple"))
            }
            let noToken = try await client.call(.get, path)
            #expect(noToken.status == .unauthorized)
        }
    }
}
