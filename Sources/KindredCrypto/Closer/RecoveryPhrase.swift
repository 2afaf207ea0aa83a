/// A Closer recovery phrase: ten words from `RecoveryWordlist` (80 bits from a CSPRNG), the
/// only human-readable secret. It unlocks the couple key (`CoupleKeyWrap`).
///
/// Parsing is forgiving about presentation only: case, surrounding and repeated whitespace,
/// and each word may be typed in full or as any prefix of four or more letters (the list's
/// first four letters are unique). Spec: `docs/wire-formats.md`, "Recovery phrase".
public struct RecoveryPhrase: Equatable, Sendable, CustomStringConvertible {
    /// The number of words in a phrase.
    public static let wordCount = 10

    /// The word indices (0…255), one per word, in order.
    public let indices: [UInt8]

    /// Creates a phrase from word indices.
    /// - Parameter indices: exactly ten indices into `RecoveryWordlist.words`.
    /// - Throws: `KindredCryptoError.invalidPhrase` when there are not ten.
    public init(indices: [UInt8]) throws(KindredCryptoError) {
        guard indices.count == Self.wordCount else {
            throw .invalidPhrase("expected \(Self.wordCount) words, got \(indices.count)")
        }
        self.indices = indices
    }

    /// Draws a fresh phrase from the system CSPRNG.
    /// - Returns: ten uniformly random words (80 bits).
    public static func generate() -> RecoveryPhrase {
        var rng = SystemRandomNumberGenerator()
        return generate(using: &rng)
    }

    /// Draws a phrase from the given generator (tests pass a seeded one).
    static func generate(using rng: inout some RandomNumberGenerator) -> RecoveryPhrase {
        // Ten indices always satisfy the initializer's only check.
        RecoveryPhrase(unchecked: (0..<wordCount).map { _ in UInt8.random(in: 0...255, using: &rng) })
    }

    private init(unchecked indices: [UInt8]) { self.indices = indices }

    /// Parses a typed or pasted phrase.
    /// - Parameter text: ten words separated by whitespace; any case; each word in full or as a
    ///   prefix of at least four letters.
    /// - Throws: `KindredCryptoError.invalidPhrase` naming the first problem: the word count, or
    ///   the position of the first word that is not in the list.
    public init(parsing text: String) throws(KindredCryptoError) {
        let typed = text.split(whereSeparator: { $0.isWhitespace }).map { $0.lowercased() }
        guard typed.count == Self.wordCount else {
            throw .invalidPhrase("expected \(Self.wordCount) words, got \(typed.count)")
        }
        var indices = [UInt8]()
        for (position, word) in typed.enumerated() {
            guard let index = Self.index(of: word) else {
                throw .invalidPhrase("word \(position + 1) is not in the word list (type the whole word or its first four letters)")
            }
            indices.append(index)
        }
        self.indices = indices
    }

    /// The list index of a lower-case word, or of the one word it is a 4+-letter prefix of.
    static func index(of word: String) -> UInt8? {
        let words = RecoveryWordlist.words
        if let exact = words.firstIndex(of: word) { return UInt8(exact) }
        guard word.count >= 4 else { return nil }
        let matches = words.indices.filter { words[$0].hasPrefix(word) }
        return matches.count == 1 ? UInt8(matches[0]) : nil
    }

    /// The words, lower case, in order.
    public var words: [String] { indices.map { RecoveryWordlist.words[Int($0)] } }

    /// The normalised phrase: the ten full words, lower case, joined by single spaces. This
    /// exact UTF-8 text is the Argon2id password and what the invite transport encrypts.
    public var normalized: String { words.joined(separator: " ") }

    /// A redacted description, so a phrase never reaches a log by accident.
    public var description: String { "RecoveryPhrase(\(Self.wordCount) words, redacted)" }
}
