import Crypto
import Foundation
import KindredCrypto

/// The results of This or That, How Well Do You Know Me and Spin the Wheel, computed on the
/// devices from both opened slots (docs/closer.md, "Games").
public enum GameRules {
    /// An agreement or guessing score.
    public struct Score: Sendable, Equatable, Codable {
        /// Items where the two answers match.
        public var matches: Int
        /// Items played.
        public var total: Int
        /// `matches` out of 100, rounded down (0 when nothing was played).
        public var percent: Int { total == 0 ? 0 : matches * 100 / total }
        /// Item ids where the answers match, in pack order.
        public var matchedItems: [String]
    }

    /// This or That: how often both partners chose the same side.
    /// - Parameters:
    ///   - itemIDs: The pack's items in order.
    ///   - a: One partner's choices (0 or 1), one per item.
    ///   - b: The other's.
    /// - Throws: `CloserKitError.tampered` when a slot has the wrong length or a value other than 0 or 1.
    public static func thisOrThat(itemIDs: [String], _ a: [Int], _ b: [Int]) throws(CloserKitError) -> Score {
        try check(a, items: itemIDs.count, options: Array(repeating: 2, count: itemIDs.count))
        try check(b, items: itemIDs.count, options: Array(repeating: 2, count: itemIDs.count))
        return score(itemIDs, a, b)
    }

    /// How Well Do You Know Me: how many of the subject's own answers the guesser found.
    /// - Parameters:
    ///   - itemIDs: The pack's items in order.
    ///   - optionCounts: Each item's number of options.
    ///   - subject: The answers of the partner who answered about themself.
    ///   - guesser: The other partner's guesses.
    /// - Throws: `CloserKitError.tampered` for a slot of the wrong length or an option out of range.
    public static func howWell(itemIDs: [String], optionCounts: [Int], subject: [Int], guesser: [Int]) throws(CloserKitError) -> Score {
        try check(subject, items: itemIDs.count, options: optionCounts)
        try check(guesser, items: itemIDs.count, options: optionCounts)
        return score(itemIDs, subject, guesser)
    }

    /// The roles of a How Well session: exactly one `self` and one `guess`.
    /// - Returns: The subject's and the guesser's slots.
    /// - Throws: `CloserKitError.tampered` otherwise.
    public static func howWellRoles(_ x: GameSlotContent, _ y: GameSlotContent) throws(CloserKitError) -> (subject: GameSlotContent, guesser: GameSlotContent) {
        switch (x.role, y.role) {
        case ("self", "guess"): return (x, y)
        case ("guess", "self"): return (y, x)
        default: throw .tampered("a How Well session needs one partner answering about themself and one guessing")
        }
    }

    /// Spin the Wheel: `SHA-256(label ‖ share of the lower user id ‖ share of the higher) mod n`,
    /// a number neither device nor the server chose (each share was committed before either was
    /// seen). The modulo bias is below n / 2^256.
    /// - Parameters:
    ///   - shares: Each member's 32-byte share, by user id.
    ///   - count: The wheel's number of segments (the pack's items).
    /// - Returns: The winning index, 0..<count.
    /// - Throws: `CloserKitError.tampered` unless there are two 32-byte shares; `.invalidInput` for an empty wheel.
    public static func wheel(shares: [String: [UInt8]], count: Int) throws(CloserKitError) -> Int {
        guard count > 0 else { throw .invalidInput("the wheel has no segments") }
        guard shares.count == 2, shares.values.allSatisfy({ $0.count == 32 }) else { throw .tampered("a spin needs two 32-byte shares") }
        var hasher = SHA256()
        hasher.update(data: Array("kindred/closer/wheel/v1".utf8) + [0])
        for userID in shares.keys.sorted() { hasher.update(data: shares[userID] ?? []) }
        var remainder: UInt64 = 0
        for byte in hasher.finalize() { remainder = (remainder << 8 | UInt64(byte)) % UInt64(count) }
        return Int(remainder)
    }

    private static func check(_ answers: [Int], items: Int, options: [Int]) throws(CloserKitError) {
        guard answers.count == items else { throw .tampered("a slot has \(answers.count) answers for \(items) items") }
        for (index, answer) in answers.enumerated() where !(0..<options[index]).contains(answer) {
            throw .tampered("answer \(answer) to item \(index + 1) is out of range")
        }
    }

    private static func score(_ itemIDs: [String], _ a: [Int], _ b: [Int]) -> Score {
        let matched = itemIDs.indices.filter { a[$0] == b[$0] }.map { itemIDs[$0] }
        return Score(matches: matched.count, total: itemIDs.count, matchedItems: matched)
    }
}
