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

/// Unpairing with consent: the partner accepts or rejects, the requester cancels, or leaves alone
/// once the request has waited its grace period. Ending a pair wipes what the server held of it.
@Suite struct SoulMateUnpairTests {
    /// A couple with envelopes both ways and both locations shared; returns the message ids.
    static func conversation(_ couple: SoulMateCouple, client: any TestClientProtocol) async throws -> [String] {
        var ids: [String] = []
        for (text, from, to) in [("one", couple.a, couple.b), ("two", couple.a, couple.b), ("three", couple.b, couple.a)] {
            let sent = try await client.sendMessage(text, from: from, to: to)
            #expect(sent.response.status == .created, "\(sent.response.text)")
            ids.append(sent.id)
        }
        for (member, partner) in [(couple.a, couple.b), (couple.b, couple.a)] {
            let sealed = try SoulMateFixtures.seal("52.5,13.4", from: member, to: partner)
            let put = try await client.soulmate(.put, "/v1/soulmate/pair/location", token: member.token, json: #"{"ciphertext":"\#(sealed)"}"#)
            #expect(put.status == .ok, "\(put.text)")
        }
        return ids
    }

    @Test(arguments: Backend.all)
    func acceptingEndsThePairAndWipesItsEnvelopesAndLocations(backend: Backend) async throws {
        let clock = TestClock(start: try instant("2026-03-01T12:00:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { application, client in
            let database = application.database
            let couple = try await client.soulmateCouple("wipe")
            let (ada, bea) = (couple.a, couple.b)
            _ = try await Self.conversation(couple, client: client)
            // Another couple's conversation is not touched.
            let others = try await client.soulmateCouple("other")
            let kept = try await client.sendMessage("keep me", from: others.a, to: others.b)

            let created = try await client.soulmate(.post, "/v1/soulmate/unpair-requests", token: ada.token)
            #expect(created.status == .created, "\(created.text)")
            let request = client.object(created)
            let id = request["id"] as? String ?? ""
            #expect(request["status"] as? String == "pending")
            #expect(request["requesterId"] as? String == ada.id)
            #expect(request["createdAt"] as? String == "2026-03-01T12:00:00Z")
            #expect(request["canLeaveAt"] as? String == "2026-03-08T12:00:00Z")
            expectRefusal(try await client.soulmate(.post, "/v1/soulmate/unpair-requests", token: bea.token), 409, "unpair_request_exists")
            // Bea sees it on the pair, on her channel and by push.
            let pair = client.object(try await client.soulmate(.get, "/v1/soulmate/pair", token: bea.token))
            #expect((pair["unpairRequest"] as? [String: Any])?["id"] as? String == id)
            #expect(try await SoulMateFixtures.events("soulmate.unpair_request", for: bea.id, on: database).map { $0.data["requestId"] } == [id])
            #expect(try await SoulMateFixtures.pushes("soulmate.unpair_request", for: bea.id, on: database).count == 1)

            let accepted = try await client.soulmate(.post, "/v1/soulmate/unpair-requests/\(id)/accept", token: bea.token)
            #expect(accepted.status == .ok, "\(accepted.text)")
            #expect(client.object(accepted)["status"] as? String == "accepted")
            #expect(client.object(accepted)["respondedAt"] as? String == "2026-03-01T12:00:00Z")

            // Nothing of the pair is left: envelopes both ways, locations, the pair and its members.
            #expect(try await SoulMateFixtures.envelopeIDs(on: database) == [kept.id])
            for member in [ada, bea] {
                #expect(try await SoulMateFixtures.count("soulmate_locations", where: "user_id", is: member.id, on: database) == 0)
                #expect(try await SoulMateFixtures.count("soulmate_pair_members", where: "user_id", is: member.id, on: database) == 0)
                expectRefusal(try await client.soulmate(.get, "/v1/soulmate/pair", token: member.token), 404, "not_paired")
                #expect(try await client.inbox(member).isEmpty)
                // Both phones are told to wipe the conversation, on the channel and by push.
                let unpaired = try await SoulMateFixtures.events("soulmate.unpaired", for: member.id, on: database)
                #expect(unpaired.map { $0.data["pairId"] } == [couple.pairID])
                #expect(unpaired.first?.data["requestId"] == id)
                #expect(try await SoulMateFixtures.pushes("soulmate.unpaired", for: member.id, on: database).count == 1)
            }
            #expect(try await SoulMateFixtures.count("soulmate_pairs", where: "id", is: couple.pairID, on: database) == 0)
            #expect(try await SoulMateFixtures.count("soulmate_unpair_requests", where: "id", is: id, on: database) == 0)
            // The pushes that carried the wiped envelopes carry nothing any more.
            for push in try await SoulMateFixtures.pushes(for: bea.id, type: "soulmate_message", on: database)
                + SoulMateFixtures.pushes(for: ada.id, type: "soulmate_message", on: database)
            {
                #expect(push.rawData == "{}")
            }
            #expect(try await SoulMateFixtures.pushes(for: others.b.id, type: "soulmate_message", on: database).first?.data["envelope"] == kept.ciphertext)
            // The other couple still chats; the two may pair again.
            #expect(try await client.inbox(others.b).count == 1)
            let again = try await client.requestPair(from: bea, to: ada)
            #expect(again.status == .created, "\(again.text)")
        }
    }

    @Test(arguments: Backend.all)
    func rejectingKeepsThePairAndCancellingWithdraws(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { application, client in
            let couple = try await client.soulmateCouple("keep")
            let (ada, bea) = (couple.a, couple.b)
            let ids = try await Self.conversation(couple, client: client)
            let first = client.object(try await client.soulmate(.post, "/v1/soulmate/unpair-requests", token: ada.token))["id"] as? String ?? ""
            let rejected = try await client.soulmate(.post, "/v1/soulmate/unpair-requests/\(first)/reject", token: bea.token)
            #expect(rejected.status == .ok, "\(rejected.text)")
            #expect(client.object(rejected)["status"] as? String == "rejected")
            expectRefusal(try await client.soulmate(.post, "/v1/soulmate/unpair-requests/\(first)/accept", token: bea.token), 409, "unpair_request_closed")
            expectRefusal(try await client.soulmate(.post, "/v1/soulmate/unpair-requests/\(first)/cancel", token: ada.token), 409, "unpair_request_closed")
            // The pair and its conversation stay; no unpair request is pending on it.
            let pair = client.object(try await client.soulmate(.get, "/v1/soulmate/pair", token: ada.token))
            #expect(pair["id"] as? String == couple.pairID)
            #expect(pair["unpairRequest"] == nil)
            #expect(try await SoulMateFixtures.envelopeIDs(on: application.database) == Set(ids))
            let updates = try await SoulMateFixtures.events("soulmate.unpair_request_updated", for: ada.id, on: application.database)
            #expect(updates.map { $0.data["status"] } == ["rejected"])

            // Bea asks in turn, then withdraws.
            let second = client.object(try await client.soulmate(.post, "/v1/soulmate/unpair-requests", token: bea.token))["id"] as? String ?? ""
            #expect(second != first)
            let cancelled = try await client.soulmate(.post, "/v1/soulmate/unpair-requests/\(second)/cancel", token: bea.token)
            #expect(client.object(cancelled)["status"] as? String == "cancelled")
            expectRefusal(try await client.soulmate(.post, "/v1/soulmate/unpair-requests/\(second)/leave", token: bea.token), 409, "unpair_request_closed")
            #expect(try await client.soulmate(.get, "/v1/soulmate/pair", token: bea.token).status == .ok)
            #expect(try await SoulMateFixtures.events("soulmate.unpaired", for: ada.id, on: application.database).isEmpty)
        }
    }

    @Test(arguments: Backend.all)
    func theRequesterMayLeaveAloneOnlyAfterSevenDays(backend: Backend) async throws {
        let clock = TestClock(start: try instant("2026-04-01T08:00:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { application, client in
            let database = application.database
            let couple = try await client.soulmateCouple("leave")
            _ = try await Self.conversation(couple, client: client)
            let id = client.object(try await client.soulmate(.post, "/v1/soulmate/unpair-requests", token: couple.a.token))["id"] as? String ?? ""
            let early = try await client.soulmate(.post, "/v1/soulmate/unpair-requests/\(id)/leave", token: couple.a.token)
            expectRefusal(early, 422, "unpair_not_due")
            #expect(early.text.contains("2026-04-08T08:00:00Z"))
            clock.advance(by: .seconds(7 * 86_400 - 1))
            let (ada, bea) = (try await client.refreshed(couple.a), try await client.refreshed(couple.b))
            expectRefusal(try await client.soulmate(.post, "/v1/soulmate/unpair-requests/\(id)/leave", token: ada.token), 422, "unpair_not_due")
            // Only the requester leaves.
            expectRefusal(try await client.soulmate(.post, "/v1/soulmate/unpair-requests/\(id)/leave", token: bea.token), 403, "not_requester")
            clock.advance(by: .seconds(1))
            let left = try await client.soulmate(.post, "/v1/soulmate/unpair-requests/\(id)/leave", token: ada.token)
            #expect(left.status == .ok, "\(left.text)")
            #expect(client.object(left)["status"] as? String == "left")
            #expect(try await SoulMateFixtures.envelopeIDs(on: database).isEmpty)
            for member in [ada, bea] {
                expectRefusal(try await client.soulmate(.get, "/v1/soulmate/pair", token: member.token), 404, "not_paired")
                #expect(try await SoulMateFixtures.events("soulmate.unpaired", for: member.id, on: database).count == 1)
                #expect(try await SoulMateFixtures.pushes("soulmate.unpaired", for: member.id, on: database).count == 1)
                #expect(try await SoulMateFixtures.count("soulmate_locations", where: "user_id", is: member.id, on: database) == 0)
            }
        }
    }

    @Test(arguments: Backend.all)
    func unpairRefusals(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let sam = try await client.soulmateMember("unpair-sam")
            expectRefusal(try await client.soulmate(.post, "/v1/soulmate/unpair-requests", token: sam.token), 404, "not_paired")
            let couple = try await client.soulmateCouple("unpair-refuse")
            let id = client.object(try await client.soulmate(.post, "/v1/soulmate/unpair-requests", token: couple.a.token))["id"] as? String ?? ""
            expectRefusal(try await client.soulmate(.post, "/v1/soulmate/unpair-requests/\(id)/accept", token: couple.a.token), 403, "not_recipient")
            expectRefusal(try await client.soulmate(.post, "/v1/soulmate/unpair-requests/\(id)/reject", token: couple.a.token), 403, "not_recipient")
            expectRefusal(try await client.soulmate(.post, "/v1/soulmate/unpair-requests/\(id)/cancel", token: couple.b.token), 403, "not_requester")
            // Another couple's members cannot see the request at all.
            let others = try await client.soulmateCouple("unpair-others")
            for member in [others.a, others.b, sam] {
                expectRefusal(try await client.soulmate(.post, "/v1/soulmate/unpair-requests/\(id)/accept", token: member.token), 404, "unpair_request_not_found")
            }
        }
    }
}
