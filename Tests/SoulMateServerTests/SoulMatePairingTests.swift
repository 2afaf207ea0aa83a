@testable import KindredServer
@testable import KindredServerCore
@testable import SoulMateServer
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// Pair codes and pair requests: a pair exists only after consent, and a person is in at most one.
@Suite struct SoulMatePairingTests {
    static func status(of requestID: String, on database: Database) async throws -> String? {
        try await database.sql.select().column("status").from("soulmate_pair_requests").where("id", .equal, requestID).first()?
            .decode(column: "status", as: String.self)
    }

    @Test(arguments: Backend.all)
    func pairCodesAreSixStableDigitsAndRotatingRetiresTheOldOne(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let ann = try await client.soulmateMember("code-ann")
            let ben = try await client.soulmateMember("code-ben")
            let first = try await client.pairCode(ann)
            #expect(first.count == 6 && first.allSatisfy(\.isASCII) && first.allSatisfy(\.isNumber), "\(first)")
            #expect(try await client.pairCode(ann) == first)
            let rotated = try await client.soulmate(.post, "/v1/soulmate/pair-code/rotate", token: ann.token)
            #expect(rotated.status == .ok)
            let second = client.object(rotated)["code"] as? String ?? ""
            #expect(second.count == 6 && second != first)
            #expect(client.object(rotated)["rotatedAt"] is String)
            #expect(try await client.pairCode(ann) == second)
            // The old code matches nobody now; the new one (spaces ignored) matches Ann.
            expectRefusal(
                try await client.soulmate(.post, "/v1/soulmate/pair-requests", token: ben.token, json: #"{"code":"\#(first)"}"#),
                404, "pair_code_not_found"
            )
            let spaced = "\(second.prefix(3)) \(second.suffix(3))"
            let asked = try await client.soulmate(.post, "/v1/soulmate/pair-requests", token: ben.token, json: #"{"code":"\#(spaced)"}"#)
            #expect(asked.status == .created, "\(asked.text)")
            #expect((client.object(asked)["to"] as? [String: Any])?["id"] as? String == ann.id)
        }
    }

    @Test(arguments: Backend.all)
    func aRequestFillsBothBoxesAndTheBadge(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { application, client in
            let cleo = try await client.soulmateMember("box-cleo", first: "Cleo", last: "Clark")
            let dan = try await client.soulmateMember("box-dan", first: "Dan", last: "Dale")
            let created = try await client.requestPair(from: cleo, to: dan)
            #expect(created.status == .created)
            let request = client.object(created)
            let id = request["id"] as? String ?? ""
            #expect(request["status"] as? String == "pending")
            #expect((request["from"] as? [String: Any])?["firstName"] as? String == "Cleo")
            #expect((request["to"] as? [String: Any])?["lastName"] as? String == "Dale")
            #expect(request["respondedAt"] == nil)

            let dans = client.object(try await client.soulmate(.get, "/v1/soulmate/pair-requests", token: dan.token))
            let incoming = dans["incoming"] as? [[String: Any]] ?? []
            #expect(incoming.map { $0["id"] as? String } == [id])
            #expect((incoming.first?["from"] as? [String: Any])?["lastName"] as? String == "Clark")
            #expect((dans["outgoing"] as? [Any])?.isEmpty == true)
            #expect(dans["pendingCount"] as? Int == 1)
            let cleos = client.object(try await client.soulmate(.get, "/v1/soulmate/pair-requests", token: cleo.token))
            #expect((cleos["outgoing"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
            #expect((cleos["incoming"] as? [Any])?.isEmpty == true)
            #expect(cleos["pendingCount"] as? Int == 0)

            // Both are told on their channels; Dan also by push.
            for member in [cleo, dan] {
                let events = try await SoulMateFixtures.events("soulmate.pair_request", for: member.id, on: application.database)
                #expect(events.map { $0.data["requestId"] } == [id])
                #expect(events.first?.data["fromUserId"] == cleo.id)
            }
            #expect(try await SoulMateFixtures.pushes("soulmate.pair_request", for: dan.id, on: application.database).count == 1)
            #expect(try await SoulMateFixtures.pushes("soulmate.pair_request", for: cleo.id, on: application.database).isEmpty)
        }
    }

    @Test(arguments: Backend.all)
    func acceptingPairsTheTwoAndSupersedesEveryOtherPendingRequestOfEither(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { application, client in
            let ada = try await client.soulmateMember("acc-ada", first: "Ada", last: "Lovelace")
            let bea = try await client.soulmateMember("acc-bea", first: "Bea", last: "Brown")
            let cleo = try await client.soulmateMember("acc-cleo")
            let dan = try await client.soulmateMember("acc-dan")
            let eve = try await client.soulmateMember("acc-eve")
            let fay = try await client.soulmateMember("acc-fay")
            let winner = try await client.pendingRequest(from: ada, to: bea)
            let rivalForBea = try await client.pendingRequest(from: cleo, to: bea)
            let beaAsked = try await client.pendingRequest(from: bea, to: dan)
            let rivalForAda = try await client.pendingRequest(from: eve, to: ada)
            let unrelated = try await client.pendingRequest(from: fay, to: cleo)

            let accepted = try await client.soulmate(.post, "/v1/soulmate/pair-requests/\(winner)/accept", token: bea.token)
            #expect(accepted.status == .ok, "\(accepted.text)")
            let pair = client.object(accepted)
            let partner = pair["partner"] as? [String: Any]
            #expect(partner?["id"] as? String == ada.id)
            #expect(partner?["firstName"] as? String == "Ada")
            #expect(partner?["lastName"] as? String == "Lovelace")
            #expect(pair["since"] is String)
            let pairID = pair["id"] as? String ?? ""
            let adas = client.object(try await client.soulmate(.get, "/v1/soulmate/pair", token: ada.token))
            #expect(adas["id"] as? String == pairID)
            #expect((adas["partner"] as? [String: Any])?["firstName"] as? String == "Bea")

            let database = application.database
            #expect(try await Self.status(of: winner, on: database) == "accepted")
            for other in [rivalForBea, beaAsked, rivalForAda] {
                #expect(try await Self.status(of: other, on: database) == "superseded")
            }
            #expect(try await Self.status(of: unrelated, on: database) == "pending")
            // Boxes and badges no longer list the closed requests.
            let beas = client.object(try await client.soulmate(.get, "/v1/soulmate/pair-requests", token: bea.token))
            #expect((beas["incoming"] as? [Any])?.isEmpty == true && (beas["outgoing"] as? [Any])?.isEmpty == true)
            #expect(beas["pendingCount"] as? Int == 0)
            // Both are told; the one who asked also by push.
            for member in [ada, bea] {
                let paired = try await SoulMateFixtures.events("soulmate.paired", for: member.id, on: database)
                #expect(paired.map { $0.data["pairId"] } == [pairID])
            }
            #expect(try await SoulMateFixtures.pushes("soulmate.paired", for: ada.id, on: database).count == 1)
            #expect(try await SoulMateFixtures.pushes("soulmate.paired", for: bea.id, on: database).isEmpty)
            // One pair, two members.
            #expect(try await SoulMateFixtures.count("soulmate_pair_members", where: "pair_id", is: pairID, on: database) == 2)
            // Accepting again: closed.
            expectRefusal(try await client.soulmate(.post, "/v1/soulmate/pair-requests/\(winner)/accept", token: bea.token), 409, "pair_request_closed")
            expectRefusal(try await client.soulmate(.post, "/v1/soulmate/pair-requests/\(rivalForBea)/accept", token: bea.token), 409, "pair_request_closed")
        }
    }

    @Test(arguments: Backend.all)
    func rejectingAndCancellingCloseTheRequest(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { application, client in
            let cleo = try await client.soulmateMember("close-cleo")
            let dan = try await client.soulmateMember("close-dan")
            let rejected = try await client.pendingRequest(from: cleo, to: dan)
            let answer = try await client.soulmate(.post, "/v1/soulmate/pair-requests/\(rejected)/reject", token: dan.token)
            #expect(answer.status == .ok, "\(answer.text)")
            #expect(client.object(answer)["status"] as? String == "rejected")
            #expect(client.object(answer)["respondedAt"] is String)
            expectRefusal(try await client.soulmate(.post, "/v1/soulmate/pair-requests/\(rejected)/reject", token: dan.token), 409, "pair_request_closed")
            expectRefusal(try await client.soulmate(.post, "/v1/soulmate/pair-requests/\(rejected)/cancel", token: cleo.token), 409, "pair_request_closed")
            let updates = try await SoulMateFixtures.events("soulmate.pair_request_updated", for: cleo.id, on: application.database)
            #expect(updates.map { $0.data["status"] } == ["rejected"])

            // Asking again after a rejection is a new request; this one Cleo withdraws.
            let cancelled = try await client.pendingRequest(from: cleo, to: dan)
            #expect(cancelled != rejected)
            let withdrawn = try await client.soulmate(.post, "/v1/soulmate/pair-requests/\(cancelled)/cancel", token: cleo.token)
            #expect(client.object(withdrawn)["status"] as? String == "cancelled")
            let dans = client.object(try await client.soulmate(.get, "/v1/soulmate/pair-requests", token: dan.token))
            #expect((dans["incoming"] as? [Any])?.isEmpty == true)
            #expect(dans["pendingCount"] as? Int == 0)
            expectRefusal(try await client.soulmate(.post, "/v1/soulmate/pair-requests/\(cancelled)/accept", token: dan.token), 409, "pair_request_closed")
            let danUpdates = try await SoulMateFixtures.events("soulmate.pair_request_updated", for: dan.id, on: application.database)
            #expect(danUpdates.map { $0.data["status"] } == ["rejected", "cancelled"])
            expectRefusal(try await client.soulmate(.get, "/v1/soulmate/pair", token: dan.token), 404, "not_paired")
        }
    }

    @Test(arguments: Backend.all)
    func askingSomeoneWhoAskedYouPairsAtOnce(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { application, client in
            let cleo = try await client.soulmateMember("mutual-cleo")
            let dan = try await client.soulmateMember("mutual-dan")
            let theirs = try await client.pendingRequest(from: cleo, to: dan)
            let back = try await client.requestPair(from: dan, to: cleo)
            #expect(back.status == .created, "\(back.text)")
            #expect(client.object(back)["status"] as? String == "accepted")
            #expect(client.object(back)["id"] as? String == theirs)
            #expect(try await Self.status(of: theirs, on: application.database) == "accepted")
            let pair = client.object(try await client.soulmate(.get, "/v1/soulmate/pair", token: cleo.token))
            #expect((pair["partner"] as? [String: Any])?["id"] as? String == dan.id)
            // No second request row was made.
            #expect(try await application.database.sql.count("soulmate_pair_requests") == 1)
        }
    }

    @Test(arguments: Backend.all)
    func pairRequestRefusals(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let couple = try await client.soulmateCouple("refuse")
            let cleo = try await client.soulmateMember("refuse-cleo")
            let dan = try await client.soulmateMember("refuse-dan")
            expectRefusal(try await client.requestPair(from: cleo, to: cleo), 422, "own_pair_code")
            expectRefusal(try await client.requestPair(from: couple.a, to: cleo), 409, "already_paired")
            expectRefusal(try await client.requestPair(from: cleo, to: couple.b), 409, "partner_already_paired")
            _ = try await client.pendingRequest(from: cleo, to: dan)
            expectRefusal(try await client.requestPair(from: cleo, to: dan), 409, "pair_request_exists")
            for code in ["12345", "1234567", "abcdef", "", "12 34 5"] {
                expectRefusal(
                    try await client.soulmate(.post, "/v1/soulmate/pair-requests", token: cleo.token, json: #"{"code":"\#(code)"}"#),
                    422, "invalid_pair_code", code
                )
            }
            // The sender paired elsewhere meanwhile: the recipient's acceptance is refused.
            let eve = try await client.soulmateMember("refuse-eve")
            let fay = try await client.soulmateMember("refuse-fay")
            let stale = try await client.pendingRequest(from: eve, to: dan)
            _ = try await client.soulmateCouple(eve, fay, publishKeys: false)
            expectRefusal(try await client.soulmate(.post, "/v1/soulmate/pair-requests/\(stale)/accept", token: dan.token), 409, "pair_request_closed")
            // A request id that is no id at all.
            expectRefusal(try await client.soulmate(.post, "/v1/soulmate/pair-requests/not.an.id/accept", token: dan.token), 404, "pair_request_not_found")
        }
    }

    @Test(arguments: Backend.all)
    func acceptingAfterTheRecipientPairedElsewhereIsRefused(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { application, client in
            // Two requests race: Dan asked Eve and Fay asked Dan; Eve accepts first, which closes
            // Fay's request (superseded), so Dan cannot accept it any more.
            let dan = try await client.soulmateMember("race-dan")
            let eve = try await client.soulmateMember("race-eve")
            let fay = try await client.soulmateMember("race-fay")
            let toEve = try await client.pendingRequest(from: dan, to: eve)
            let fromFay = try await client.pendingRequest(from: fay, to: dan)
            #expect(try await client.soulmate(.post, "/v1/soulmate/pair-requests/\(toEve)/accept", token: eve.token).status == .ok)
            expectRefusal(try await client.soulmate(.post, "/v1/soulmate/pair-requests/\(fromFay)/accept", token: dan.token), 409, "pair_request_closed")
            // Even a request left pending by hand (a race the transaction lost) cannot make a second pair.
            try await application.database.sql.update("soulmate_pair_requests").set("status", to: "pending").where("id", .equal, fromFay).run()
            expectRefusal(try await client.soulmate(.post, "/v1/soulmate/pair-requests/\(fromFay)/accept", token: dan.token), 409, "already_paired")
            #expect(try await SoulMateFixtures.count("soulmate_pair_members", where: "user_id", is: fay.id, on: application.database) == 0)
        }
    }

    @Test(arguments: Backend.all)
    func codeLookUpsAreLimitedPerAccountFoundOrNot(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let cleo = try await client.soulmateMember("limit-cleo")
            let dan = try await client.soulmateMember("limit-dan")
            let limit = SoulMateSettings().codeLookupsPerUserPerHour
            // Every look-up counts, even one that finds only Cleo's own code.
            for attempt in 0..<limit {
                expectRefusal(try await client.requestPair(from: cleo, to: cleo), 422, "own_pair_code", "attempt \(attempt)")
            }
            let limited = try await client.requestPair(from: cleo, to: dan)
            expectRefusal(limited, 429, "rate_limited")
            #expect(limited.headers[.retryAfter] != nil)
            // Another account is not limited by Cleo's look-ups.
            let eve = try await client.soulmateMember("limit-eve")
            #expect(try await client.requestPair(from: eve, to: dan).status == .created)
        }
    }
}
