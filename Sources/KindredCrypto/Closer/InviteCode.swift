/// A Closer invite code: six characters that name `invites/{code}`, the only part of an invite
/// the server sees. The Firestore rule accepts `^[A-Za-z0-9]{6}$`; Kindred generates codes from
/// Crockford's upper-case Base32 symbols (30 bits), a subset of that rule that people can read
/// aloud and type in any case. Spec: `docs/wire-formats.md`, "Invite transport".
public enum InviteCode {
    /// The number of characters.
    public static let length = 6

    /// A fresh random code, for the server to assign (or a client to propose).
    /// - Returns: six Crockford symbols, upper case.
    public static func generate() -> String {
        String(decoding: Crockford.random(length), as: UTF8.self)
    }

    /// Canonicalizes a code a person typed: case, spaces, hyphens and the look-alikes O/I/L.
    /// - Parameter typed: the text as entered.
    /// - Returns: the canonical six-symbol code.
    /// - Throws: `KindredCryptoError.malformed(format: "invite code", …)`.
    public static func canonicalize(_ typed: String) throws(KindredCryptoError) -> String {
        switch Crockford.canonicalize(typed) {
        case .failure(let bad):
            throw .malformed(format: "invite code", reason: "character \(bad.position) is not a letter or digit of the invite alphabet")
        case .success(let symbols):
            guard symbols.count == length else { throw .malformed(format: "invite code", reason: "expected \(length) characters, got \(symbols.count)") }
            return String(decoding: symbols, as: UTF8.self)
        }
    }

    /// Checks a code is one the invite protocol may bind to (the rule's alphabet and length).
    /// - Throws: `KindredCryptoError.malformed(format: "invite code", …)`.
    static func check(_ code: String) throws(KindredCryptoError) {
        if let problem = CloserWireFormat.problem(code, as: .inviteCode) {
            throw .malformed(format: "invite code", reason: problem)
        }
    }
}
