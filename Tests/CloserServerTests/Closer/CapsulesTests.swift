@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredCrypto
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// Memory lane: capsules are listed to both partners, their content is refused while locked and
/// served from the unlock time; only the author deletes, and only while locked; the hourly job
/// announces each unlock once to both partners.
@Suite struct CapsulesTests {
    @Test(arguments: Backend.all)
    func aCapsuleStaysLockedUntilItsTimeThenOpensForBoth(backend: Backend) async throws {
        let clock = TestClock(start: try instant("2026-06-01T12:00:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { app, client in
            let couple = try await client.datesCouple("capsule")
            let cipher = try GamesFixtures.cipher()
            let id = couple.pair.coupleID
            let body = try OverTimeFixtures.capsule(title: "Our first year", content: "Remember the lake", unlockAt: "2026-06-03T12:00:00Z", cipher: cipher, coupleID: id)
            let created = try await client.call(.post, "\(couple.base)/capsules", token: couple.a.accessToken, json: body)
            #expect(created.status == .created, "\(created.text)")
            let capsule = client.object(created)
            let capsuleID = capsule["id"] as? String ?? ""
            #expect(capsule["locked"] as? Bool == true && capsule["content"] == nil && capsule["createdBy"] as? String == couple.a.user.id)

            let listed = client.object(try await client.call(.get, "\(couple.base)/capsules", token: couple.b.accessToken))["capsules"] as? [[String: Any]] ?? []
            #expect(listed.count == 1 && listed.first?["locked"] as? Bool == true && listed.first?["content"] == nil)
            #expect(try cipher.decryptText(listed.first?["title"] as? String ?? "", coupleId: id) == "Our first year")
            for token in [couple.a.accessToken, couple.b.accessToken] {
                let locked = try await client.call(.get, "\(couple.base)/capsules/\(capsuleID)", token: token)
                #expect(locked.status == .conflict && locked.errorCode == "capsule_locked", "\(locked.text)")
                #expect(!locked.text.contains("enc:v1:"))
            }
            let partnerDelete = try await client.call(.delete, "\(couple.base)/capsules/\(capsuleID)", token: couple.b.accessToken)
            #expect(partnerDelete.status == .forbidden && partnerDelete.errorCode == "not_owner")

            // One second before, then at the unlock time: the time decides, not the job.
            clock.set(try instant("2026-06-03T11:59:59Z"))
            let tokenA = try await client.freshToken("capsule-a@example.com"), tokenB = try await client.freshToken("capsule-b@example.com")
            #expect(try await client.call(.get, "\(couple.base)/capsules/\(capsuleID)", token: tokenB).errorCode == "capsule_locked")
            clock.set(try instant("2026-06-03T12:00:00Z"))
            let opened = try await client.call(.get, "\(couple.base)/capsules/\(capsuleID)", token: tokenB)
            #expect(opened.status == .ok)
            #expect(try cipher.decryptText(client.object(opened)["content"] as? String ?? "", coupleId: id) == "Remember the lake")
            #expect(client.object(opened)["announcedAt"] == nil)
            let late = try await client.call(.delete, "\(couple.base)/capsules/\(capsuleID)", token: tokenA)
            #expect(late.status == .conflict && late.errorCode == "capsule_unlocked")

            // The hourly job announces it once, to both partners.
            let platform = try Platform.server(database: app.database, clock: app.clock, logger: platformLogger)
            #expect(try await platform.jobs.runNow(CapsuleUnlocks.jobName).message == "unlocked 1 capsules")
            #expect(try await platform.jobs.runNow(CapsuleUnlocks.jobName).message == "unlocked 0 capsules")
            let sql = app.database.sql
            #expect(try await OverTimeFixtures.notifications("memory_capsule", of: couple.a.user.id, on: sql).map(\.title) == ["A time capsule opened"])
            #expect(try await OverTimeFixtures.notifications("memory_capsule", of: couple.b.user.id, on: sql).map(\.title) == [
                "A time capsule for you two", "A time capsule opened",
            ])
            let events = try await DatesFixtures.events(of: id, on: sql)
            #expect(events.filter { $0.hasPrefix("closer.capsule_") } == ["closer.capsule_created", "closer.capsule_unlocked"])
            let announced = client.object(try await client.call(.get, "\(couple.base)/capsules/\(capsuleID)", token: tokenA))
            #expect(announced["announcedAt"] as? String == "2026-06-03T12:00:00Z")
        }
    }

    @Test(arguments: Backend.all)
    func theAuthorDeletesALockedCapsuleAndBadCapsulesGetTypedErrors(backend: Backend) async throws {
        let clock = TestClock(start: try instant("2026-06-01T12:00:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { app, client in
            let couple = try await client.datesCouple("capsule-bad")
            let other = try await client.datesCouple("capsule-bad-other")
            let cipher = try GamesFixtures.cipher()
            let id = couple.pair.coupleID
            let path = "\(couple.base)/capsules"
            let sealedTitle = try cipher.encrypt("t", coupleId: id), sealedContent = try cipher.encrypt("c", coupleId: id)
            for (unlockAt, title, content) in [
                ("2026-06-01T12:00:30Z", sealedTitle, sealedContent), ("2026-05-01T12:00:00Z", sealedTitle, sealedContent),
                ("2060-01-01T00:00:00Z", sealedTitle, sealedContent), ("2026-07-01T00:00:00Z", "plain title", sealedContent),
                ("2026-07-01T00:00:00Z", sealedTitle, "enc:v1:!!"),
            ] {
                let response = try await client.call(
                    .post, path, token: couple.a.accessToken, json: #"{"title":"\#(title)","content":"\#(content)","unlockAt":"\#(unlockAt)"}"#
                )
                #expect(response.status == .badRequest && response.errorCode == "invalid_capsule", "\(unlockAt) \(response.text)")
            }
            let huge = #"{"title":"\#(sealedTitle)","content":"enc:v1:\#(String(repeating: "A", count: 65_530))","unlockAt":"2026-07-01T00:00:00Z"}"#
            let tooLarge = try await client.call(.post, path, token: couple.a.accessToken, json: huge)
            #expect(tooLarge.status.code == 413 && tooLarge.errorCode == "capsule_too_large")
            let longTitle = #"{"title":"enc:v1:\#(String(repeating: "A", count: 1_020))","content":"\#(sealedContent)","unlockAt":"2026-07-01T00:00:00Z"}"#
            #expect(try await client.call(.post, path, token: couple.a.accessToken, json: longTitle).errorCode == "capsule_too_large")

            let body = try OverTimeFixtures.capsule(title: "Later", content: "Not yet", unlockAt: "2026-07-01T00:00:00Z", cipher: cipher, coupleID: id)
            let capsuleID = client.object(try await client.call(.post, path, token: couple.a.accessToken, json: body))["id"] as? String ?? ""
            #expect(try await client.call(.get, "\(path)/\(capsuleID)", token: other.a.accessToken).errorCode == "couple_not_found")
            #expect(try await client.call(.get, "\(path)/\(UUID().uuidString.lowercased())", token: couple.a.accessToken).errorCode == "capsule_not_found")
            let otherPath = "\(other.base)/capsules/\(capsuleID)"
            #expect(try await client.call(.get, otherPath, token: other.a.accessToken).errorCode == "capsule_not_found")
            #expect(try await client.call(.delete, "\(path)/\(capsuleID)", token: couple.a.accessToken).status == .noContent)
            #expect(try await client.call(.delete, "\(path)/\(capsuleID)", token: couple.a.accessToken).errorCode == "capsule_not_found")
            #expect(try await DatesFixtures.count("closer_capsules", where: "couple_id", is: id, on: app.database.sql) == 0)
            let events = try await DatesFixtures.events(of: id, on: app.database.sql)
            #expect(events.filter { $0.hasPrefix("closer.capsule_") } == ["closer.capsule_created", "closer.capsule_deleted"])
            // A deleted capsule is never announced.
            clock.set(try instant("2026-07-02T00:00:00Z"))
            #expect(try await CapsuleUnlocks.unlockPage(limit: 10, now: clock.now(), events: CloserEvents(
                outbox: NotificationOutbox(clock: app.clock) { _, _, _ in }, relay: try Platform.server(database: app.database, clock: app.clock, logger: platformLogger).realtime
            )) == 0)
        }
    }
}
