/// The name of one secret in a `SecureStore`: the keychain item's account on Apple platforms,
/// the entry's name in `secure-store.bin` on Linux.
///
/// A name is 1 to 128 bytes of `A-Z a-z 0-9 . _ -`, and starts with the name of the kit that
/// owns it (`closer.couple`, `soulmate.identity`) so kits sharing one store never collide.
/// Kits declare their fixed names as constants (`SecureStoreItem("closer.couple")`) and build
/// dynamic ones with `init(validating:)` (`crypto.shared.<partnerUID>`).
public struct SecureStoreItem: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The longest name, in bytes.
    public static let maximumLength = 128

    /// The item's name.
    public let rawValue: String

    /// The item named `rawValue`, or `nil` when the name is not valid.
    public init?(rawValue: String) {
        guard Self.problem(with: rawValue) == nil else { return nil }
        self.rawValue = rawValue
    }

    /// The item named `name` (a name built at run time, such as `crypto.shared.<partnerUID>`).
    /// - Throws: `SecureStoreError` saying why the name is not valid.
    public init(validating name: String) throws(SecureStoreError) {
        if let problem = Self.problem(with: name) {
            throw SecureStoreError("invalid item name \"\(name)\": \(problem)")
        }
        rawValue = name
    }

    /// The item named `name`, a literal in the source: an invalid one is a programming error and
    /// stops the program (names built at run time use `init(validating:)`).
    public init(_ name: StaticString) {
        let text = name.description
        if let problem = Self.problem(with: text) {
            preconditionFailure("invalid secure store item name \"\(text)\": \(problem)")
        }
        rawValue = text
    }

    /// The item's name.
    public var description: String { rawValue }

    /// Why `name` is not a valid item name, or `nil` when it is.
    static func problem(with name: String) -> String? {
        let bytes = Array(name.utf8)
        if bytes.isEmpty { return "it is empty" }
        if bytes.count > maximumLength { return "it is longer than \(maximumLength) bytes" }
        guard bytes.allSatisfy(isAllowed) else { return "only A-Z a-z 0-9 . _ - are allowed" }
        return nil
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}
