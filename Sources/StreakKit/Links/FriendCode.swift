/// A friend-invite code: six characters of the unambiguous alphabet (A–Z and 2–9 without 0, O, 1, I),
/// read case-insensitively and kept in upper case.
public struct FriendCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The characters a code is made of.
    public static let alphabet: Set<Character> = Set("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    /// How many characters a code has.
    public static let length = 6

    /// The code in upper case (`ABC234`).
    public let rawValue: String

    /// The code `text` normalised to upper case, or nil when it is not six characters of `alphabet`.
    public init?(rawValue text: String) {
        let upper = text.uppercased()
        guard upper.count == Self.length, upper.allSatisfy(Self.alphabet.contains) else { return nil }
        rawValue = upper
    }

    /// The code.
    public var description: String { rawValue }
}
