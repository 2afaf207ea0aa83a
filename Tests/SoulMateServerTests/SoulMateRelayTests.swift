@testable import KindredServer
@testable import KindredServerCore
@testable import SoulMateServer
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredCrypto
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// The transient relay: envelopes queued for the partner, idempotent on their id, paged oldest
/// first, deleted when acknowledged, and announced by push with the envelope when it fits.
@Suite struct SoulMateRelayTests {
    @Test(arguments: Backend.all)
    func anEnvelopeIsQueuedOnceAndOpensOnTheOtherPhone(backend: Backend) async throws {
        let clock = TestClock(start: try instant("2026-06-01T18:30:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { application, client in
            let couple = try await client.soulmateCouple("relay")
            let (ada, bea) = (couple.a, couple.b)
            let sent = try await client.sendMessage("hello Bea", from: ada, to: bea, id: "msg-1")
            #expect(sent.response.status == .created, "\(sent.response.text)")
            #expect(client.object(sent.response)["id"] as? String == "msg-1")
            #expect(client.object(sent.response)["status"] as? String == "queued")
            // The same envelope again: a duplicate, not a second copy.
            let again = try await client.soulmate(
                .post, "/v1/soulmate/messages", token: ada.token,
                json: SoulMateFixtures.envelope(id: "msg-1", to: bea.id, ciphertext: sent.ciphertext)
            )
            #expect(again.status == .ok, "\(again.text)")
            #expect(client.object(again)["status"] as? String == "duplicate")
            // The id with another envelope, or from the other partner: taken.
            let other = try SoulMateFixtures.seal("something else", from: ada, to: bea)
            expectRefusal(
                try await client.soulmate(.post, "/v1/soulmate/messages", token: ada.token, json: SoulMateFixtures.envelope(id: "msg-1", to: bea.id, ciphertext: other)),
                409, "message_id_taken"
            )
            expectRefusal(
                try await client.soulmate(.post, "/v1/soulmate/messages", token: bea.token, json: SoulMateFixtures.envelope(id: "msg-1", to: ada.id, ciphertext: sent.ciphertext)),
                409, "message_id_taken"
            )

            let inbox = try await client.inbox(bea)
            #expect(inbox.count == 1)
            let envelope = inbox.first ?? [:]
            #expect(envelope["id"] as? String == "msg-1")
            #expect(envelope["senderId"] as? String == ada.id)
            #expect(envelope["recipientId"] as? String == bea.id)
            #expect(envelope["keyVersion"] as? Int == 1)
            #expect(envelope["receivedAt"] as? String == "2026-06-01T18:30:00Z")
            #expect(envelope["sentAt"] is String)
            let opened = try SoulMateFixtures.chatKey(bea, ada).open(envelope["ciphertext"] as? String ?? "")
            #expect(opened == ChatPayload(type: .text, value: "hello Bea"))
            #expect(try await client.inbox(ada).isEmpty)

            // Bea is told on her channel, with the metadata only.
            let events = try await SoulMateFixtures.events("soulmate.message", for: bea.id, on: application.database)
            #expect(events.count == 1)
            #expect(events.first?.data["messageId"] == "msg-1")
            #expect(events.first?.data["senderId"] == ada.id)
            #expect(events.first?.data["keyVersion"] == "1")
            #expect(events.first?.data["envelope"] == nil)
            #expect(try await SoulMateFixtures.events("soulmate.message", for: ada.id, on: application.database).isEmpty)
        }
    }

    @Test(arguments: Backend.all)
    func sendRefusals(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let couple = try await client.soulmateCouple("send-refuse")
            let (ada, bea) = (couple.a, couple.b)
            let sealed = try SoulMateFixtures.seal("hi", from: ada, to: bea)
            func send(_ body: String, as member: SoulMateMember = ada) async throws -> TestResponse {
                try await client.soulmate(.post, "/v1/soulmate/messages", token: member.token, json: body)
            }
            // The key version must be the sender's published one.
            expectRefusal(try await send(SoulMateFixtures.envelope(id: "v2", to: bea.id, keyVersion: 2, ciphertext: sealed)), 409, "key_version_mismatch")
            // Malformed ids, ciphertexts and versions.
            for id in ["bad id", "", String(repeating: "x", count: 65), "dot.ted", "émoji"] {
                expectRefusal(try await send(SoulMateFixtures.envelope(id: id, to: bea.id, ciphertext: sealed)), 422, "invalid_envelope", "id \(id)")
            }
            let oversize = SoulMateFixtures.base64(24_579) // 32,772 characters
            for ciphertext in ["not base64!", SoulMateFixtures.base64(27), "QUJDRA", oversize] {
                expectRefusal(
                    try await send(SoulMateFixtures.envelope(id: SoulMateFixtures.messageID(), to: bea.id, ciphertext: ciphertext)),
                    422, "invalid_envelope", "\(ciphertext.count) characters"
                )
            }
            expectRefusal(try await send(SoulMateFixtures.envelope(id: "v0", to: bea.id, keyVersion: 0, ciphertext: sealed)), 422, "invalid_envelope")
            // The largest envelope the contract allows is accepted.
            let largest = SoulMateFixtures.base64(24_576) // 32,768 characters
            #expect(try await send(SoulMateFixtures.envelope(id: "largest", to: bea.id, ciphertext: largest)).status == .created)

            // Only the current partner receives: not oneself, not a stranger.
            let sam = try await client.soulmateMember("send-sam")
            expectRefusal(try await send(SoulMateFixtures.envelope(id: "self", to: ada.id, ciphertext: sealed)), 403, "not_partner")
            expectRefusal(try await send(SoulMateFixtures.envelope(id: "sam", to: sam.id, ciphertext: sealed)), 403, "not_partner")
            expectRefusal(try await send(SoulMateFixtures.envelope(id: "sam", to: ada.id, ciphertext: sealed), as: sam), 404, "not_paired")
            // Another couple's member cannot write to Bea either.
            let others = try await client.soulmateCouple("send-others")
            expectRefusal(try await send(SoulMateFixtures.envelope(id: "cross", to: bea.id, ciphertext: sealed), as: others.a), 403, "not_partner")
            #expect(try await client.inbox(bea).map { $0["id"] as? String } == ["largest"])

            // Before publishing a key there is no version to seal with.
            let keyless = try await client.soulmateCouple(
                try await client.soulmateMember("send-keyless-a"), try await client.soulmateMember("send-keyless-b"), publishKeys: false
            )
            expectRefusal(
                try await send(SoulMateFixtures.envelope(id: "keyless", to: keyless.b.id, ciphertext: sealed), as: keyless.a),
                409, "key_version_mismatch"
            )
        }
    }

    @Test(arguments: Backend.all)
    func theInboxPagesOldestFirst(backend: Backend) async throws {
        let clock = TestClock(start: try instant("2026-06-02T08:00:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { _, client in
            let couple = try await client.soulmateCouple("pages")
            let (ada, bea) = (couple.a, couple.b)
            // Ids in reverse alphabetical order, so the order can only come from the time received.
            var sent: [String] = []
            for index in 0..<5 {
                let id = "z\(9 - index)-message"
                #expect(try await client.sendMessage("message \(index)", from: ada, to: bea, id: id).response.status == .created)
                sent.append(id)
                clock.advance(by: .seconds(1))
            }
            var pages: [[String]] = []
            var cursor: String?
            repeat {
                let query = "?limit=2" + (cursor.map { "&cursor=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0)" } ?? "")
                let response = try await client.soulmate(.get, "/v1/soulmate/messages\(query)", token: bea.token)
                #expect(response.status == .ok, "\(response.text)")
                let page = client.object(response)
                pages.append((page["envelopes"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
                cursor = page["nextCursor"] as? String
            } while cursor != nil && pages.count < 10
            #expect(pages == [Array(sent[0..<2]), Array(sent[2..<4]), [sent[4]]])
            // The whole inbox in one page, and the texts in order.
            let all = try await client.inbox(bea)
            let key = try SoulMateFixtures.chatKey(bea, ada)
            #expect(try all.map { try key.open($0["ciphertext"] as? String ?? "").value } == (0..<5).map { "message \($0)" })
            // Same-millisecond envelopes page by id without loss or repeat.
            let tied = ["tie-c", "tie-a", "tie-b"]
            for id in tied { _ = try await client.sendMessage("tie", from: ada, to: bea, id: id) }
            var seen: [String] = []
            cursor = nil
            repeat {
                let query = "?limit=1" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = client.object(try await client.soulmate(.get, "/v1/soulmate/messages\(query)", token: bea.token))
                seen += (page["envelopes"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                cursor = page["nextCursor"] as? String
            } while cursor != nil && seen.count < 20
            #expect(seen == sent + tied.sorted())

            for query in ["?cursor=garbage", "?cursor=12.bad%20id", "?cursor=abc.def", "?limit=0", "?limit=501"] {
                expectRefusal(try await client.soulmate(.get, "/v1/soulmate/messages\(query)", token: bea.token), 400, "bad_request", query)
            }
        }
    }

    @Test(arguments: Backend.all)
    func acknowledgingDeletesOnlyTheCallersEnvelopesAndRedactsTheirPushes(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { application, client in
            let database = application.database
            let couple = try await client.soulmateCouple("ack")
            let (ada, bea) = (couple.a, couple.b)
            let first = try await client.sendMessage("first", from: ada, to: bea)
            let second = try await client.sendMessage("second", from: ada, to: bea)
            let third = try await client.sendMessage("third", from: ada, to: bea)
            let reply = try await client.sendMessage("reply", from: bea, to: ada)

            // The push carries the envelope for the notification extension, marked mutable.
            let pushes = try await SoulMateFixtures.pushes(for: bea.id, type: "soulmate_message", on: database)
            #expect(pushes.count == 3)
            let push = pushes.first { $0.data["messageId"] == first.id }?.data ?? [:]
            #expect(push["envelope"] == first.ciphertext)
            #expect(push["kindred.mutable-content"] == "1")
            #expect(push["messageId"] == first.id)
            #expect(push["senderId"] == ada.id)
            #expect(push["event"] == "soulmate.message")
            #expect(pushes.allSatisfy { $0.body == "New message" })

            // Ada acknowledging Bea's envelopes deletes none; Bea's acknowledgement deletes hers only.
            let adas = try await client.soulmate(.post, "/v1/soulmate/messages/ack", token: ada.token, json: #"{"ids":["\#(first.id)","\#(second.id)"]}"#)
            #expect(client.object(adas)["deleted"] as? Int == 0)
            let beas = try await client.soulmate(
                .post, "/v1/soulmate/messages/ack", token: bea.token,
                json: #"{"ids":["\#(first.id)","\#(second.id)","\#(second.id)","\#(reply.id)","never-sent"]}"#
            )
            #expect(beas.status == .ok, "\(beas.text)")
            #expect(client.object(beas)["deleted"] as? Int == 2)
            #expect(try await SoulMateFixtures.envelopeIDs(on: database) == [third.id, reply.id])
            #expect(try await client.inbox(bea).map { $0["id"] as? String } == [third.id])
            // Acknowledging again deletes nothing.
            let twice = try await client.soulmate(.post, "/v1/soulmate/messages/ack", token: bea.token, json: #"{"ids":["\#(first.id)"]}"#)
            #expect(client.object(twice)["deleted"] as? Int == 0)

            // The acknowledged envelopes' pushes no longer carry anything; the waiting one still does.
            let after = try await SoulMateFixtures.pushes(for: bea.id, type: "soulmate_message", on: database)
            #expect(after.filter { $0.rawData == "{}" }.count == 2)
            #expect(after.compactMap { $0.data["envelope"] } == [third.ciphertext])

            // Refusals: empty, too many, malformed.
            expectRefusal(try await client.soulmate(.post, "/v1/soulmate/messages/ack", token: bea.token, json: #"{"ids":[]}"#), 422, "invalid_ack")
            let tooMany = (0...500).map { #""id-\#($0)""# }.joined(separator: ",")
            expectRefusal(try await client.soulmate(.post, "/v1/soulmate/messages/ack", token: bea.token, json: #"{"ids":[\#(tooMany)]}"#), 422, "invalid_ack")
            let fiveHundred = (0..<500).map { #""id-\#($0)""# }.joined(separator: ",")
            #expect(try await client.soulmate(.post, "/v1/soulmate/messages/ack", token: bea.token, json: #"{"ids":[\#(fiveHundred)]}"#).status == .ok)
            expectRefusal(
                try await client.soulmate(.post, "/v1/soulmate/messages/ack", token: bea.token, json: #"{"ids":["\#(third.id)","bad id"]}"#), 422, "invalid_ack"
            )
            // A refused acknowledgement deleted nothing.
            #expect(try await SoulMateFixtures.envelopeIDs(on: database) == [third.id, reply.id])
        }
    }

    @Test(arguments: Backend.all)
    func aLargeEnvelopeIsNotCarriedByItsPush(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { application, client in
            let couple = try await client.soulmateCouple("large")
            let (ada, bea) = (couple.a, couple.b)
            let limit = SoulMateSettings().pushEnvelopeLimit
            let large = try await client.sendMessage(String(repeating: "long letter ", count: 250), from: ada, to: bea)
            #expect(large.response.status == .created, "\(large.response.text)")
            #expect(large.ciphertext.count > limit)
            // Just within the limit (a payload padded to a ciphertext of exactly `limit` characters).
            let key = try SoulMateFixtures.chatKey(ada, bea)
            var padding = 2000
            var fitting = try key.seal(ChatPayload(type: .text, value: String(repeating: "x", count: padding)))
            while fitting.count < limit - 3 {
                padding += 1
                fitting = try key.seal(ChatPayload(type: .text, value: String(repeating: "x", count: padding)))
            }
            #expect(fitting.count <= limit)
            let fits = try await client.soulmate(
                .post, "/v1/soulmate/messages", token: ada.token, json: SoulMateFixtures.envelope(id: "fits", to: bea.id, ciphertext: fitting)
            )
            #expect(fits.status == .created)

            let pushes = try await SoulMateFixtures.pushes(for: bea.id, type: "soulmate_message", on: application.database)
            #expect(pushes.count == 2)
            let bare = pushes.first { $0.data["messageId"] == large.id }
            #expect(bare != nil)
            #expect(bare?.data["envelope"] == nil)
            #expect(bare?.data["kindred.mutable-content"] == nil)
            #expect(bare?.body == "New message")
            let carrying = pushes.first { $0.data["messageId"] == "fits" }
            #expect(carrying?.data["envelope"] == fitting)
            #expect(carrying?.data["kindred.mutable-content"] == "1")
            // No push copy to redact for the large one: the envelope row names none.
            let row = try await application.database.sql.select().column("notification_id").from("soulmate_envelopes")
                .where("id", .equal, large.id).first()
            #expect(try row?.decode(column: "notification_id", as: String?.self) == nil)
        }
    }
}
