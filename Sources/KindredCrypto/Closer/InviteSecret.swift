import Crypto

/// The client-only half of a Closer invite: 13 random Crockford Base32 symbols (65 bits) and one
/// check symbol, shown to the inviter next to the code and never sent to the server.
///
/// Displayed as `XXXXX-XXXXX-XXXC` (C = check). The check symbol is the first 5 bits of
/// `SHA-256("closer-invite-check-v1|" + the 13 symbols)`: a typo is caught with probability
/// 31/32 before it costs a rate-limited accept attempt. Spec: `docs/wire-formats.md`,
/// "Invite transport".
public struct InviteSecret: Equatable, Sendable, CustomStringConvertible {
    /// Random symbols in a secret.
    public static let symbolCount = 13
    /// The domain string of the check symbol.
    static let checkDomain = "closer-invite-check-v1|"

    /// The 13 canonical upper-case symbols: the Argon2id password, as ASCII.
    public let symbols: String

    /// A fresh random secret from the system CSPRNG.
    /// - Returns: 65 bits of secret.
    public static func generate() -> InviteSecret {
        InviteSecret(unchecked: String(decoding: Crockford.random(symbolCount), as: UTF8.self))
    }

    /// A secret from a seeded generator (tests).
    static func generate(using rng: inout some RandomNumberGenerator) -> InviteSecret {
        InviteSecret(unchecked: String(decoding: Crockford.random(symbolCount, using: &rng), as: UTF8.self))
    }

    private init(unchecked symbols: String) { self.symbols = symbols }

    /// Parses a typed secret: case-insensitive, spaces and hyphens ignored, O/I/L read as 0/1.
    /// - Parameter typed: the 14 symbols (13 + check), in any grouping.
    /// - Throws: `KindredCryptoError.malformed(format: "invite secret", …)` for a bad character,
    ///   a wrong length or a check symbol that does not match.
    public init(parsing typed: String) throws(KindredCryptoError) {
        let format = "invite secret"
        let symbols: [UInt8]
        switch Crockford.canonicalize(typed) {
        case .failure(let bad): throw .malformed(format: format, reason: "character \(bad.position) is not a letter or digit of the invite alphabet")
        case .success(let s): symbols = s
        }
        guard symbols.count == Self.symbolCount + 1 else {
            throw .malformed(format: format, reason: "expected \(Self.symbolCount + 1) characters, got \(symbols.count)")
        }
        let data = String(decoding: symbols[0..<Self.symbolCount], as: UTF8.self)
        guard Self.checkSymbol(for: data) == symbols[Self.symbolCount] else {
            throw .malformed(format: format, reason: "check character does not match (a typo?)")
        }
        self.symbols = data
    }

    /// The check symbol of 13 data symbols.
    static func checkSymbol(for data: String) -> UInt8 {
        let digest = Array(SHA256.hash(data: Array((checkDomain + data).utf8)))
        return Crockford.symbols[Int(digest[0] >> 3)]
    }

    /// The secret as shown to people: `XXXXX-XXXXX-XXXC`.
    public var display: String {
        let all = Array(symbols.utf8) + [Self.checkSymbol(for: symbols)]
        return String(decoding: all[0..<5], as: UTF8.self) + "-" + String(decoding: all[5..<10], as: UTF8.self)
            + "-" + String(decoding: all[10...], as: UTF8.self)
    }

    /// A redacted description, so a secret never reaches a log by accident.
    public var description: String { "InviteSecret(redacted)" }
}

/// What the inviter shares and the acceptor types: `CODE-XXXXX-XXXXX-XXXC`, the six-symbol code
/// followed by the secret. Spec: `docs/wire-formats.md`, "Invite transport".
public struct InviteShare: Equatable, Sendable {
    /// The canonical invite code (sent to the server).
    public let code: String
    /// The secret (never sent).
    public let secret: InviteSecret

    /// Pairs a code and a secret.
    /// - Parameters:
    ///   - code: the code the server assigned, in canonical Crockford form (`InviteCode.generate`).
    ///   - secret: the secret `InviteTransport.create` returned.
    /// - Throws: `KindredCryptoError.malformed(format: "invite code", …)` for a code that is not
    ///   six canonical Crockford symbols (it could not be typed back).
    public init(code: String, secret: InviteSecret) throws(KindredCryptoError) {
        guard try InviteCode.canonicalize(code) == code else {
            throw .malformed(format: "invite code", reason: "not in canonical upper-case form")
        }
        self.code = code
        self.secret = secret
    }

    /// Parses a share string as typed or pasted.
    /// - Parameter text: 6 + 14 Crockford symbols; case, spaces, hyphens and look-alikes are forgiven.
    /// - Throws: `KindredCryptoError.malformed(format: "invite share", …)` for a bad character
    ///   or length; `malformed(format: "invite secret", …)` for a check-symbol mismatch.
    public init(parsing text: String) throws(KindredCryptoError) {
        let format = "invite share"
        let symbols: [UInt8]
        switch Crockford.canonicalize(text) {
        case .failure(let bad): throw .malformed(format: format, reason: "character \(bad.position) is not a letter or digit of the invite alphabet")
        case .success(let s): symbols = s
        }
        let expected = InviteCode.length + InviteSecret.symbolCount + 1
        guard symbols.count == expected else {
            throw .malformed(format: format, reason: "expected \(expected) characters (code and secret), got \(symbols.count)")
        }
        code = String(decoding: symbols[0..<InviteCode.length], as: UTF8.self)
        secret = try InviteSecret(parsing: String(decoding: symbols[InviteCode.length...], as: UTF8.self))
    }

    /// The share string: `CODE-XXXXX-XXXXX-XXXC`.
    public var text: String { code + "-" + secret.display }
}
