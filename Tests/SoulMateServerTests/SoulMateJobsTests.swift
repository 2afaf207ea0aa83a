@testable import KindredServer
@testable import KindredServerCore
@testable import SoulMateServer
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// `soulmate.cleanup-envelopes`: envelopes nobody acknowledged within seven days are deleted.
@Suite struct SoulMateJobsTests {
    @Test(arguments: Backend.all)
    func theCleanupDeletesEnvelopesOlderThanTheRetentionAndKeepsYoungerOnes(backend: Backend) async throws {
        let clock = TestClock(start: try instant("2026-07-01T00:00:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { application, client in
            let database = application.database
            let couple = try await client.soulmateCouple("cleanup")
            var (ada, bea) = (couple.a, couple.b)
            let old = try await client.sendMessage("old", from: ada, to: bea)
            let oldReply = try await client.sendMessage("old reply", from: bea, to: ada)
            clock.advance(by: .seconds(86_400))
            ada = try await client.refreshed(ada)
            let borderline = try await client.sendMessage("borderline", from: ada, to: bea)
            clock.advance(by: .seconds(5 * 86_400))
            ada = try await client.refreshed(ada)
            let young = try await client.sendMessage("young", from: ada, to: bea)
            for sent in [old, oldReply, borderline, young] {
                #expect(sent.response.status == .created, "\(sent.response.text)")
            }
            // Seven days and a minute after the first two; exactly six days and a minute after the borderline one.
            clock.advance(by: .seconds(86_400 + 60))

            let platform = try Platform.server(database: database, clock: clock, logger: platformLogger)
            let run = try await platform.jobs.runNow("soulmate.cleanup-envelopes")
            #expect(run.outcome == .ok)
            #expect(run.message == "deleted 2 envelopes older than 7 days")
            #expect(try await SoulMateFixtures.envelopeIDs(on: database) == [borderline.id, young.id])
            // The pushes that carried the deleted envelopes carry nothing now.
            let pushes = try await SoulMateFixtures.pushes(for: bea.id, type: "soulmate_message", on: database)
            #expect(pushes.map(\.data["envelope"]) == [nil, borderline.ciphertext, young.ciphertext])
            #expect(pushes.first?.rawData == "{}")
            #expect(try await SoulMateFixtures.pushes(for: ada.id, type: "soulmate_message", on: database).map(\.rawData) == ["{}"])

            // A day later the borderline one goes too; nothing is left to delete after that.
            clock.advance(by: .seconds(86_400))
            #expect(try await platform.jobs.runNow("soulmate.cleanup-envelopes").message == "deleted 1 envelopes older than 7 days")
            #expect(try await SoulMateFixtures.envelopeIDs(on: database) == [young.id])
            #expect(try await platform.jobs.runNow("soulmate.cleanup-envelopes").message == "deleted 0 envelopes older than 7 days")
            // The pair itself is untouched.
            ada = try await client.refreshed(ada)
            #expect(try await client.soulmate(.get, "/v1/soulmate/pair", token: ada.token).status == .ok)
        }
    }

    @Test(arguments: Backend.all)
    func theCleanupWorksThroughMoreThanOnePage(backend: Backend) async throws {
        let clock = TestClock(start: try instant("2026-07-01T00:00:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { application, client in
            let database = application.database
            let couple = try await client.soulmateCouple("cleanup-pages")
            // 620 stale envelopes written straight into the table (the relay's rows, without the HTTP cost).
            let stale = clock.now().millisecondsSince1970 - 8 * 86_400_000
            for batch in stride(from: 0, to: 620, by: 100) {
                let insert = database.sql.insert(into: "soulmate_envelopes")
                    .columns("id", "sender_id", "recipient_id", "sent_at", "key_version", "ciphertext", "received_at")
                for index in batch..<min(batch + 100, 620) {
                    insert.values(
                        SQLBind("stale-\(index)"), SQLBind(couple.a.id), SQLBind(couple.b.id), SQLBind(stale), SQLBind(1),
                        SQLBind(SoulMateFixtures.base64(40)), SQLBind(stale + Int64(index))
                    )
                }
                try await insert.run()
            }
            let fresh = try await client.sendMessage("fresh", from: couple.a, to: couple.b)
            let platform = try Platform.server(database: database, clock: clock, logger: platformLogger)
            #expect(try await platform.jobs.runNow("soulmate.cleanup-envelopes").message == "deleted 620 envelopes older than 7 days")
            #expect(try await SoulMateFixtures.envelopeIDs(on: database) == [fresh.id])
        }
    }
}
