import Crypto
import Foundation
import KindredCrypto

/// Desire Sync's private set intersection: Diffie–Hellman PSI on P-256 (docs/wire-formats.md,
/// "Closer games"; docs/closer.md, "Desire Sync").
///
/// Each device maps its "lean yes" item ids to curve points H(id), blinds them with a secret
/// scalar (round 1: x(a·H(i))), blinds the partner's round-1 values again (round 2:
/// x(a·b·H(j)), in the partner's order) and keeps as the overlap its own items whose doubly
/// blinded value is also among its blinding of the partner's set. Each side learns the overlap
/// and the size of the other's set, nothing about the other's other items (under the
/// decisional Diffie–Hellman assumption; each session uses fresh scalars, so sets are not
/// linkable across sessions).
///
/// swift-crypto 4.5.2 has no public hash-to-curve (CryptoExtras' is internal) and no public point
/// arithmetic, so: H is try-and-increment on x-coordinates (x = SHA-256(label ‖ pack ‖ id ‖
/// counter) until `02 ‖ x` is a valid compressed point), and scalar multiplication is ECDH
/// (`sharedSecretFromKeyAgreement`, which yields x(k·P)). Working on x-coordinates only is
/// sound: ±P share x, and k·(−P) = −(k·P) has the same x, so x(b·a·P) = x(a·b·P).
///
/// Limits against a cheating partner: one who leans yes to everything would learn the whole of
/// the other's set, so both devices cap a set at half the pack (`cap(packSize:)`) and refuse a
/// partner's round 1 above the cap or with repeated values; a partner can still pick any half
/// of the pack, or answer round 2 wrongly so that the two devices see different overlaps (a
/// denial, detectable by comparing results, not a leak).
public struct DesireSyncPSI: Sendable {
    /// The pack whose items are played (part of H's input).
    public let packID: String
    /// The caller's "lean yes" items, sorted.
    public let items: [String]
    /// This session's secret scalar (keep it until round 2; `secretRepresentation` saves it).
    let secret: P256.KeyAgreement.PrivateKey

    /// The largest set a partner may play: half the pack, at least one.
    public static func cap(packSize: Int) -> Int { max(1, packSize / 2) }

    /// A party with a fresh (or restored) secret.
    /// - Parameters:
    ///   - packID: The pack.
    ///   - items: The caller's "lean yes" item ids.
    ///   - packItemIDs: Every item id of the pack.
    ///   - secret: A saved secret (32 bytes), or nil for a fresh one.
    /// - Throws: `CloserKitError.invalidInput` for an item outside the pack, a repeated item or a
    ///   set above the cap.
    public init(packID: String, items: [String], packItemIDs: [String], secret: [UInt8]? = nil) throws(CloserKitError) {
        let pack = Set(packItemIDs)
        if let stranger = items.first(where: { !pack.contains($0) }) { throw .invalidInput("\(stranger) is not an item of \(packID)") }
        guard Set(items).count == items.count else { throw .invalidInput("an item is listed twice") }
        let cap = Self.cap(packSize: packItemIDs.count)
        guard items.count <= cap else { throw .invalidInput("lean yes to at most \(cap) items of this pack (half of it)") }
        self.packID = packID
        self.items = items.sorted()
        do {
            self.secret = try secret.map { try P256.KeyAgreement.PrivateKey(rawRepresentation: $0) } ?? P256.KeyAgreement.PrivateKey()
        } catch {
            throw .invalidInput("the saved Desire Sync secret is not a P-256 scalar")
        }
    }

    /// The secret scalar's 32 bytes, to keep between rounds.
    public var secretRepresentation: [UInt8] { Array(secret.rawRepresentation) }

    /// H(id): the item's point on P-256 (try-and-increment).
    /// - Throws: `CloserKitError.crypto` in the (probability 2^-256) case no counter works.
    public static func point(for item: String, packID: String) throws(CloserKitError) -> P256.KeyAgreement.PublicKey {
        for counter in 0...UInt8.max {
            var hasher = SHA256()
            hasher.update(data: Array("kindred/closer/psi/v1".utf8) + [0] + Array(packID.utf8) + [0] + Array(item.utf8) + [0, counter])
            if let point = try? P256.KeyAgreement.PublicKey(compressedRepresentation: [0x02] + Array(hasher.finalize())) { return point }
        }
        throw .crypto(.invalidKeyset(reason: "no curve point for \(item)"))
    }

    /// Round 1: x(a·H(i)) for each own item, in `items` order, Base64.
    public func round1() throws(CloserKitError) -> [String] {
        var out: [String] = []
        for item in items { out.append(Base64.encode(try Self.multiply(try Self.point(for: item, packID: packID), by: secret), alphabet: .standard)) }
        return out
    }

    /// Round 2: the partner's round-1 values blinded again, in the partner's order.
    /// - Parameters:
    ///   - partner: The partner's round 1.
    ///   - packSize: The pack's item count (the cap).
    /// - Throws: `CloserKitError.tampered` for a set above the cap, repeated or malformed values.
    public func round2(partner: [String], packSize: Int) throws(CloserKitError) -> [String] {
        guard partner.count <= Self.cap(packSize: packSize) else {
            throw .tampered("the partner's set has \(partner.count) items, above the cap of \(Self.cap(packSize: packSize))")
        }
        guard Set(partner).count == partner.count else { throw .tampered("the partner's set repeats a value") }
        var out: [String] = []
        for value in partner { out.append(Base64.encode(try Self.multiply(try Self.point(x: value), by: secret), alphabet: .standard)) }
        return out
    }

    /// The overlap: own items whose doubly blinded value (the partner's round 2, in `items`
    /// order) is also among this party's blinding of the partner's round 1.
    /// - Throws: `CloserKitError.tampered` when the partner's round 2 does not answer this
    ///   party's round 1 one for one.
    public func overlap(partnerRound1: [String], partnerRound2: [String], packSize: Int) throws(CloserKitError) -> [String] {
        guard partnerRound2.count == items.count else {
            throw .tampered("the partner answered \(partnerRound2.count) values for \(items.count)")
        }
        let theirs = Set(try round2(partner: partnerRound1, packSize: packSize))
        return items.indices.filter { theirs.contains(partnerRound2[$0]) }.map { items[$0] }
    }

    /// x(k·P).
    static func multiply(_ point: P256.KeyAgreement.PublicKey, by scalar: P256.KeyAgreement.PrivateKey) throws(CloserKitError) -> [UInt8] {
        do {
            return try scalar.sharedSecretFromKeyAgreement(with: point).withUnsafeBytes { Array($0) }
        } catch {
            throw .tampered("not a usable curve point")
        }
    }

    /// The point with x-coordinate `value` (either sign: only x is ever used).
    static func point(x value: String) throws(CloserKitError) -> P256.KeyAgreement.PublicKey {
        guard let x = try? Base64.decode(value, alphabet: .standard), x.count == 32,
            let point = try? P256.KeyAgreement.PublicKey(compressedRepresentation: [0x02] + x)
        else { throw .tampered("a value is not the x-coordinate of a P-256 point") }
        return point
    }
}
