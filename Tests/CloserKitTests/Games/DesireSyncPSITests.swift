@testable import CloserKit
import Foundation
import KindredCrypto
import Testing

/// Desire Sync's private set intersection between two honest devices, and what each side can
/// and cannot learn.
@Suite struct DesireSyncPSITests {
    static let pack = (1...40).map { String(format: "ds-%03d", $0) }

    /// Both rounds between two parties; each one's overlap.
    static func play(_ a: DesireSyncPSI, _ b: DesireSyncPSI) throws -> (a: [String], b: [String]) {
        let (a1, b1) = (try a.round1(), try b.round1())
        let (a2, b2) = (try a.round2(partner: b1, packSize: pack.count), try b.round2(partner: a1, packSize: pack.count))
        return (
            try a.overlap(partnerRound1: b1, partnerRound2: b2, packSize: pack.count),
            try b.overlap(partnerRound1: a1, partnerRound2: a2, packSize: pack.count)
        )
    }

    @Test func bothPartnersLearnExactlyTheOverlap() throws {
        let a = try DesireSyncPSI(packID: "ds-together", items: ["ds-001", "ds-004", "ds-009", "ds-017", "ds-030"], packItemIDs: Self.pack)
        let b = try DesireSyncPSI(packID: "ds-together", items: ["ds-030", "ds-002", "ds-009", "ds-040"], packItemIDs: Self.pack)
        let result = try Self.play(a, b)
        #expect(result.a == ["ds-009", "ds-030"])
        #expect(result.b == ["ds-009", "ds-030"])
        // Disjoint and empty sets.
        let c = try DesireSyncPSI(packID: "ds-together", items: ["ds-003"], packItemIDs: Self.pack)
        #expect(try Self.play(a, c) == ([], []))
        let none = try DesireSyncPSI(packID: "ds-together", items: [], packItemIDs: Self.pack)
        #expect(try Self.play(a, none) == ([], []))
    }

    @Test func aPartnerSeesOnlyBlindedValuesItCannotTestOffline() throws {
        let a = try DesireSyncPSI(packID: "ds-together", items: ["ds-001", "ds-002"], packItemIDs: Self.pack)
        let b = try DesireSyncPSI(packID: "ds-together", items: ["ds-002", "ds-003", "ds-004"], packItemIDs: Self.pack)
        let b1 = try b.round1()
        let b2 = try b.round2(partner: try a.round1(), packSize: Self.pack.count)
        // A learns B's set size…
        #expect(b1.count == 3)
        // …but nothing A can compute alone for any pack item appears in what B sent: neither
        // H(item) nor A's own blinding of it.
        var offline = Set<String>()
        for item in Self.pack {
            let point = try DesireSyncPSI.point(for: item, packID: "ds-together")
            offline.insert(Base64.encode(point.x963Representation.dropFirst().prefix(32), alphabet: .standard))
            offline.insert(Base64.encode(try DesireSyncPSI.multiply(point, by: a.secret), alphabet: .standard))
        }
        #expect(offline.isDisjoint(with: b1))
        #expect(offline.isDisjoint(with: b2))
        // Blinding B's values again matches B's answers for A's items only at the overlap.
        let doubled = try a.round2(partner: b1, packSize: Self.pack.count)
        #expect(Set(doubled).intersection(b2).count == 1)
        // The same set in another session (fresh scalars) shares no value: sessions are unlinkable.
        let again = try DesireSyncPSI(packID: "ds-together", items: b.items, packItemIDs: Self.pack)
        #expect(Set(try again.round1()).isDisjoint(with: b1))
        // A saved secret gives the same values back (round 2 in a later run).
        let restored = try DesireSyncPSI(packID: "ds-together", items: b.items, packItemIDs: Self.pack, secret: b.secretRepresentation)
        #expect(try restored.round1() == b1)
    }

    @Test func setsAboveTheCapAndMalformedRoundsAreRefused() throws {
        #expect(DesireSyncPSI.cap(packSize: 40) == 20)
        #expect(DesireSyncPSI.cap(packSize: 1) == 1)
        #expect(throws: CloserKitError.invalidInput("lean yes to at most 20 items of this pack (half of it)")) {
            try DesireSyncPSI(packID: "p", items: Array(Self.pack.prefix(21)), packItemIDs: Self.pack)
        }
        #expect(throws: CloserKitError.invalidInput("ds-999 is not an item of p")) {
            try DesireSyncPSI(packID: "p", items: ["ds-999"], packItemIDs: Self.pack)
        }
        #expect(throws: CloserKitError.invalidInput("an item is listed twice")) {
            try DesireSyncPSI(packID: "p", items: ["ds-001", "ds-001"], packItemIDs: Self.pack)
        }
        let honest = try DesireSyncPSI(packID: "p", items: ["ds-001"], packItemIDs: Self.pack)
        // A cheater who leans yes to everything (a modified client skips its own cap).
        let everything = try Self.pack.map { item in
            Base64.encode(try DesireSyncPSI.multiply(try DesireSyncPSI.point(for: item, packID: "p"), by: honest.secret), alphabet: .standard)
        }
        #expect(throws: CloserKitError.tampered("the partner's set has 40 items, above the cap of 20")) {
            try honest.round2(partner: everything, packSize: Self.pack.count)
        }
        #expect(throws: CloserKitError.tampered("the partner's set repeats a value")) {
            try honest.round2(partner: [everything[0], everything[0]], packSize: Self.pack.count)
        }
        #expect(throws: CloserKitError.tampered("a value is not the x-coordinate of a P-256 point")) {
            try honest.round2(partner: ["AAAA"], packSize: Self.pack.count)
        }
        #expect(throws: CloserKitError.tampered("the partner answered 0 values for 1")) {
            try honest.overlap(partnerRound1: [], partnerRound2: [], packSize: Self.pack.count)
        }
    }

    @Test func hashToCurveIsDeterministicAndSeparatedByPack() throws {
        let one = try DesireSyncPSI.point(for: "ds-001", packID: "ds-together")
        #expect(try DesireSyncPSI.point(for: "ds-001", packID: "ds-together").rawRepresentation == one.rawRepresentation)
        #expect(try DesireSyncPSI.point(for: "ds-001", packID: "ds-intimate").rawRepresentation != one.rawRepresentation)
        #expect(try DesireSyncPSI.point(for: "ds-002", packID: "ds-together").rawRepresentation != one.rawRepresentation)
    }
}
