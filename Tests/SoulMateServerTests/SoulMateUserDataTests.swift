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

/// Account deletion and export cover SoulMate's tables.
@Suite struct SoulMateUserDataTests {
    /// Every SoulMate table and the user columns it has.
    static let userColumns: [(table: String, columns: [String])] = [
        ("soulmate_pair_codes", ["user_id"]),
        ("soulmate_pair_requests", ["from_user_id", "to_user_id"]),
        ("soulmate_pairs", ["user_a_id", "user_b_id"]),
        ("soulmate_pair_members", ["user_id", "partner_id"]),
        ("soulmate_unpair_requests", ["requester_id"]),
        ("soulmate_session_locks", ["user_id"]),
        ("soulmate_identity_keys", ["user_id"]),
        ("soulmate_locations", ["user_id"]),
        ("soulmate_envelopes", ["sender_id", "recipient_id"]),
    ]

    /// Rows of every SoulMate table that name `userID` in any user column.
    static func rows(of userID: String, on database: Database) async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for (table, columns) in userColumns {
            var total = 0
            for column in columns {
                total += try await SoulMateFixtures.count(table, where: column, is: userID, on: database)
            }
            counts[table] = total
        }
        return counts
    }

    /// A couple with everything SoulMate stores: codes, requests, a lock, keys, locations,
    /// envelopes both ways and a pending unpair request; plus a pending request from a third.
    static func busyCouple(_ client: any TestClientProtocol) async throws -> (couple: SoulMateCouple, suitor: SoulMateMember, envelopes: [String: String]) {
        let couple = try await client.soulmateCouple("data")
        let (ada, bea) = (couple.a, couple.b)
        var envelopes: [String: String] = [:]
        for (text, from, to) in [("to bea", ada, bea), ("to ada", bea, ada)] {
            let sent = try await client.sendMessage(text, from: from, to: to)
            #expect(sent.response.status == .created)
            envelopes[sent.id] = sent.ciphertext
        }
        for (member, partner) in [(ada, bea), (bea, ada)] {
            let sealed = try SoulMateFixtures.seal("1,1", from: member, to: partner)
            #expect(try await client.soulmate(.put, "/v1/soulmate/pair/location", token: member.token, json: #"{"ciphertext":"\#(sealed)"}"#).status == .ok)
            #expect(try await client.soulmate(.put, "/v1/soulmate/session-lock", token: member.token, json: SoulMateFixtures.lock("phone")).status == .ok)
        }
        #expect(try await client.soulmate(.post, "/v1/soulmate/unpair-requests", token: bea.token).status == .created)
        // Ada asked someone before pairing (now superseded), and someone asks her code's owner later.
        let suitor = try await client.soulmateMember("data-suitor")
        _ = try await client.pairCode(suitor)
        _ = try await client.soulmate(.post, "/v1/soulmate/pair-code/rotate", token: ada.token)
        return (couple, suitor, envelopes)
    }

    @Test(arguments: Backend.all)
    func deletingAnAccountRemovesEverySoulMateRowAndEndsThePairForThePartner(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { application, client in
            let database = application.database
            let (couple, suitor, _) = try await Self.busyCouple(client)
            let (ada, bea) = (couple.a, couple.b)
            let before = try await Self.rows(of: ada.id, on: database)
            // Every table holds some of Ada's rows but the unpair requests (Bea asked).
            for (table, _) in Self.userColumns where table != "soulmate_unpair_requests" {
                #expect((before[table] ?? 0) > 0, "\(table) has no row of Ada's before deletion")
            }

            let deleted = try await client.call(.delete, "/v1/me", app: "soulmate", token: ada.token)
            #expect(deleted.status == .noContent, "\(deleted.text)")
            let after = try await Self.rows(of: ada.id, on: database)
            #expect(after.values.allSatisfy { $0 == 0 }, "\(after)")
            // Bea is alone: pairing again, her side of the pair gone with it.
            #expect(try await client.route(bea, installation: "phone")["route"] as? String == "pairing")
            expectRefusal(try await client.soulmate(.get, "/v1/soulmate/pair", token: bea.token), 404, "not_paired")
            #expect(try await SoulMateFixtures.count("soulmate_pairs", where: "id", is: couple.pairID, on: database) == 0)
            #expect(try await SoulMateFixtures.count("soulmate_unpair_requests", where: "pair_id", is: couple.pairID, on: database) == 0)
            #expect(try await client.inbox(bea).isEmpty)
            // Bea's own data stays (her key, her lock, her code), and she can pair again.
            #expect(try await client.soulmate(.get, "/v1/soulmate/identity-key", token: bea.token).status == .ok)
            #expect(try await client.soulmate(.get, "/v1/soulmate/session-lock", token: bea.token).status == .ok)
            #expect(try await client.requestPair(from: bea, to: suitor).status == .created)
            #expect(try await SoulMateFixtures.envelopeIDs(on: database).isEmpty)
        }
    }

    /// Deleting an account ends the pair as an unpair does: nothing sealed for the pair stays (the
    /// partner's location, the push copies of the deleted envelopes) and the partner's phone is told.
    @Test(arguments: Backend.all)
    func deletingAnAccountWipesThePairAsAnUnpairDoes(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { application, client in
            let database = application.database
            let (couple, _, envelopes) = try await Self.busyCouple(client)
            let (ada, bea) = (couple.a, couple.b)
            #expect(try await client.call(.delete, "/v1/me", app: "soulmate", token: ada.token).status == .noContent)
            #expect(
                try await SoulMateFixtures.count("soulmate_locations", where: "user_id", is: bea.id, on: database) == 0,
                "Bea's location, sealed with the key of a pair that no longer exists, is still stored"
            )
            let carried = try await SoulMateFixtures.pushes(for: bea.id, on: database).compactMap { $0.data["envelope"] }
            #expect(Set(carried).isDisjoint(with: envelopes.values), "a push to Bea still carries an envelope deleted with Ada's account")
            // Bea's phone learns at its next launch or sync: the route is `pairing` and the pair is
            // gone, so SoulMateDevice wipes the conversation (no event is sent from inside the
            // deletion: docs/soulmate.md, "Account deletion and export").
            let route = try await client.call(.get, "/v1/soulmate/route?installationId=phone", app: "soulmate", token: bea.token)
            #expect(route.status == .ok && route.text.contains(#""route":"pairing""#), "\(route.text)")
            #expect(try await client.call(.get, "/v1/soulmate/pair", app: "soulmate", token: bea.token).status == .notFound)
        }
    }

    @Test(arguments: Backend.all)
    func theExportHasThePairAndEnvelopeMetadataButNoCiphertext(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let (couple, _, envelopes) = try await Self.busyCouple(client)
            let (ada, bea) = (couple.a, couple.b)
            for member in [ada, bea] {
                let response = try await client.call(.get, "/v1/me/export", app: "soulmate", token: member.token)
                #expect(response.status == .ok, "\(response.text)")
                let data = client.object(response)["data"] as? [String: Any]
                let soulmate = data?["soulmate"] as? [String: [[String: Any]]] ?? [:]
                #expect(soulmate["soulmate_pairs"]?.map { $0["id"] as? String } == [couple.pairID])
                #expect(soulmate["soulmate_pair_members"]?.count == 2)
                #expect(soulmate["soulmate_pair_codes"]?.first?["code"] is String)
                #expect(soulmate["soulmate_identity_keys"]?.first?["public_key"] as? String == member.publicKey)
                #expect(soulmate["soulmate_session_locks"]?.first?["installation_id"] as? String == "phone")
                #expect(soulmate["soulmate_locations"]?.first?["updated_at"] != nil)
                #expect(soulmate["soulmate_locations"]?.first?["ciphertext"] == nil)
                let exported = soulmate["soulmate_envelopes"] ?? []
                #expect(Set(exported.compactMap { $0["id"] as? String }) == Set(envelopes.keys))
                for envelope in exported {
                    #expect(envelope["sender_id"] is String && envelope["recipient_id"] is String && envelope["received_at"] != nil)
                    #expect(envelope["ciphertext"] == nil && envelope["notification_id"] == nil)
                }
                #expect(soulmate["soulmate_pair_requests"]?.first?["status"] as? String == "accepted")
                // No `ciphertext` key anywhere in the export.
                let strings = SoulMateFixtures.strings(inJSON: Data(buffer: response.body))
                #expect(strings.contains(couple.pairID))
                #expect(!strings.contains("ciphertext"))
            }
            // The unpair request is in its requester's export.
            let beas = client.object(try await client.call(.get, "/v1/me/export", app: "soulmate", token: bea.token))
            let unpair = ((beas["data"] as? [String: Any])?["soulmate"] as? [String: [[String: Any]]])?["soulmate_unpair_requests"]
            #expect(unpair?.first?["status"] as? String == "pending")
        }
    }

    /// The export leaves envelopes' ciphertext out, so no other table may carry it into the export
    /// either: the queued push that carries an envelope for the notification extension does.
    @Test(arguments: Backend.all)
    func noEnvelopeCiphertextReachesTheExportThroughItsPush(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let (couple, _, envelopes) = try await Self.busyCouple(client)
            for (name, member) in [("Ada", couple.a), ("Bea", couple.b)] {
                let response = try await client.call(.get, "/v1/me/export", app: "soulmate", token: member.token)
                let strings = SoulMateFixtures.strings(inJSON: Data(buffer: response.body))
                for ciphertext in envelopes.values {
                    let holders = strings.filter { $0.contains(ciphertext) }
                    #expect(holders.isEmpty, "\(name)'s export holds an envelope's ciphertext in \(holders.map { $0.prefix(60) })")
                }
            }
        }
    }
}
