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

/// The game packs: the bundled content, premium packs through billing's real entitlement path
/// (refused to a free couple, served to a premium one), the document's rules and the import.
@Suite struct GamesPacksTests {
    @Test func theBundledPacksHoldAtLeastSixtyItemsPerGameAcrossFreeAndPremium() throws {
        let packs = try GamesCatalog.bundledPacks()
        for kind in GamesDocument.Kind.allCases {
            let ofKind = packs.filter { $0.kind == kind }
            #expect(ofKind.reduce(0) { $0 + $1.items.count } >= 60, "\(kind)")
            #expect(ofKind.contains { $0.isPremium } && ofKind.contains { !$0.isPremium }, "\(kind)")
        }
        let itemIDs = packs.flatMap { pack in pack.items.map { "\(pack.kind.rawValue)/\($0.id)" } }
        #expect(Set(itemIDs).count == itemIDs.count)
    }

    @Test(arguments: Backend.all)
    func premiumPacksFollowTheMembersSubscription(backend: Backend) async throws {
        let clock = TestClock(start: BillingFixtures.start)
        try await TestApplication.run(on: backend, clock: clock, billing: BillingFixtures.settings()) { app, client in
            let couple = try await client.datesCouple("games-premium")
            let (a, b) = (couple.a, couple.b)
            let list = client.object(try await client.call(.get, "/v1/closer/games/packs?kind=this_or_that", token: b.accessToken))
            let packs = list["packs"] as? [[String: Any]] ?? []
            #expect(packs.map { $0["id"] as? String } == ["tot-everyday", "tot-romance"])
            #expect(packs.allSatisfy { $0["items"] == nil })
            #expect(packs.last?["isPremium"] as? Bool == true)

            let free = try await client.call(.get, "\(couple.base)/games/packs/tot-everyday", token: b.accessToken)
            #expect(free.status == .ok)
            #expect((client.object(free)["items"] as? [[String: Any]])?.first?["options"] as? [String] == ["Morning person", "Night owl"])
            for token in [a.accessToken, b.accessToken] {
                let refused = try await client.call(.get, "\(couple.base)/games/packs/tot-romance", token: token)
                #expect(refused.status == .forbidden)
                #expect(refused.errorCode == "premium_required")
                let start = try await client.call(.post, "\(couple.base)/games", token: token, json: #"{"kind":"this_or_that","packId":"tot-romance"}"#)
                #expect(start.errorCode == "premium_required")
            }

            let purchase = try await client.revenueCatWebhook(BillingFixtures.revenueCat(
                id: "gp1", type: "INITIAL_PURCHASE", user: a.user.id, product: "closer_premium_monthly",
                expiresAt: BillingFixtures.now + 30 * 86_400, eventAt: BillingFixtures.now - 100
            ))
            #expect(purchase.status == .ok)
            await app.drainInbox()
            // Either member's subscription opens the pack to both.
            let served = try await client.call(.get, "\(couple.base)/games/packs/tot-romance", token: b.accessToken)
            #expect(served.status == .ok, "\(served.text)")
            #expect((client.object(served)["items"] as? [[String: Any]])?.count == 31)
            _ = try await client.startGame(couple, "this_or_that", pack: "tot-romance", token: b.accessToken)
        }
    }

    @Test func packsThatBreakARuleAreRefused() {
        func refused(_ json: String) -> String? {
            do {
                _ = try GamesDocument(json: Data(json.utf8))
                return nil
            } catch {
                return error.description
            }
        }
        let item = #"{"id":"x-1","prompt":"P","options":["a","b"]}"#
        #expect(refused(#"{"packs":[{"id":"p","kind":"this_or_that","title":"T","description":"","isPremium":false,"items":[\#(item)]}]}"#) == nil)
        #expect(refused(#"{"packs":[]}"#) == "the document has no packs")
        #expect(refused(#"{"packs":[{"id":"P!","kind":"wheel","title":"T","description":"","isPremium":false,"items":[{"id":"a","prompt":"x"}]}]}"#) == "pack P!: id must match ^[a-z0-9][a-z0-9-]{0,63}$")
        #expect(refused(#"{"packs":[{"id":"p","kind":"wheel","title":"T","description":"","isPremium":false,"items":[\#(item)]}]}"#) == "pack p: item x-1: a wheel item has 0–0 options")
        #expect(refused(#"{"packs":[{"id":"p","kind":"how_well","title":"T","description":"","isPremium":false,"items":[\#(item),\#(item)]}]}"#) == "pack p: item x-1 appears twice")
        #expect(refused(#"{"packs":[{"id":"p","kind":"bingo","title":"T","description":"","isPremium":false,"items":[]}]}"#)?.hasPrefix("not a games document") == true)
    }

    @Test(arguments: Backend.all)
    func anImportedPackIsServedAfterTheNextStart(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { app, client in
            let json = #"{"packs":[{"id":"wheel-evening","kind":"wheel","title":"Replaced","description":"","isPremium":false,"items":[{"id":"w-1","prompt":"Only this"}]},{"id":"wheel-new","kind":"wheel","title":"New","description":"","isPremium":true,"items":[{"id":"w-2","prompt":"New spin"}]}]}"#
            let summary = try await GamesImport.run(Data(json.utf8), database: app.database, clock: TestClock())
            #expect(summary.packIDs == ["wheel-evening", "wheel-new"])
            #expect(summary.itemCount == 2)
            let catalog = try await GamesCatalog.load(from: app.database)
            #expect(summary.catalogPackCount == catalog.packs.count)
            #expect(catalog.packsByID["wheel-evening"]?.items.map(\.prompt) == ["Only this"])
            #expect(catalog.packsByID["wheel-new"]?.isPremium == true)
            #expect(catalog.packs.last?.id == "wheel-new")
            let bad = #"{"packs":[{"id":"x","kind":"wheel","title":"","description":"","isPremium":false,"items":[{"id":"a","prompt":"b"}]}]}"#
            await #expect(throws: GamesError.invalidPack(id: "x", "title must be 1–80 characters")) {
                try await GamesImport.run(Data(bad.utf8), database: app.database, clock: TestClock())
            }
        }
    }
}
