/// Crockford's Base32 symbols (`0-9`, `A-Z` without `I L O U`) for the text people read, type
/// and say: invite codes and invite secrets. Reading is case-insensitive and maps the look-alikes
/// `O`→`0` and `I`, `L`→`1`. Spec: `docs/wire-formats.md`, "Invite transport".
enum Crockford {
    /// The 32 symbols, value = position.
    static let symbols = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

    /// Separators people type between groups: space, tab, CR, LF and hyphen.
    static let ignored: Set<UInt8> = [0x20, 0x09, 0x0d, 0x0a, UInt8(ascii: "-")]

    /// The value (0…31) of a typed symbol, or `nil` if it is not one.
    static func value(of c: UInt8) -> UInt8? {
        var upper = c
        if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) { upper = c - 32 }
        switch upper {
        case UInt8(ascii: "O"): return 0
        case UInt8(ascii: "I"), UInt8(ascii: "L"): return 1
        default: return symbols.firstIndex(of: upper).map { UInt8($0) }
        }
    }

    /// Canonicalizes typed text: drops spaces and hyphens, then maps every symbol to its
    /// canonical upper-case form.
    /// - Returns: the canonical symbols, or the 1-based position (among the kept characters) of
    ///   the first character that is not a Crockford symbol.
    static func canonicalize(_ text: String) -> Result<[UInt8], BadSymbol> {
        var out = [UInt8]()
        for c in text.utf8 where !ignored.contains(c) {
            guard let v = value(of: c) else { return .failure(BadSymbol(position: out.count + 1)) }
            out.append(symbols[Int(v)])
        }
        return .success(out)
    }

    /// The position of a character that is not a Crockford symbol.
    struct BadSymbol: Error {
        let position: Int
    }

    /// `count` uniformly random symbols from the system CSPRNG.
    static func random(_ count: Int) -> [UInt8] {
        var rng = SystemRandomNumberGenerator()
        return random(count, using: &rng)
    }

    /// `count` uniformly random symbols from `rng`.
    static func random(_ count: Int, using rng: inout some RandomNumberGenerator) -> [UInt8] {
        (0..<count).map { _ in symbols[Int.random(in: 0..<32, using: &rng)] }
    }
}
