/// One coverage-guided fuzz target: a decoder that reads bytes from outside, and the checks that
/// must hold for every input (docs/reliability.md, "Coverage-guided fuzzing").
///
/// A target feeds the bytes to its decoder. A decoder that refuses the input with its typed error
/// is fine; a crash (trap, sanitizer report) is a finding, and so is a broken invariant, which the
/// target reports as a thrown ``FuzzFinding`` (a parse that succeeds must re-encode to what it read,
/// stay within the input's bounds, and so on).
public struct FuzzTarget: Sendable {
    /// The name `scripts/fuzz NAME` and the corpus folder `Fuzz/corpus/NAME/` use.
    public let name: String
    /// What the target feeds its input to, in one line.
    public let summary: String
    /// Feeds one input to the decoder and checks the invariants.
    /// Returns whether the decoder accepted the input (a refusal with its typed error is `false`).
    private let body: @Sendable ([UInt8]) throws(FuzzFinding) -> Bool

    /// A target named `name` that runs `body` on each input; `body` returns whether the decoder accepted it.
    public init(name: String, summary: String, body: @escaping @Sendable ([UInt8]) throws(FuzzFinding) -> Bool) {
        self.name = name
        self.summary = summary
        self.body = body
    }

    /// Runs one input through the target.
    /// - Parameter input: the bytes, as libFuzzer or a corpus file gives them.
    /// - Returns: whether the decoder accepted the input (the corpus must hold accepted inputs, so
    ///   the fuzzer starts from the decoder's success paths).
    /// - Throws: ``FuzzFinding`` when an invariant does not hold.
    @discardableResult
    public func run(_ input: [UInt8]) throws(FuzzFinding) -> Bool {
        try body(input)
    }
}

/// An invariant a fuzz target checks that did not hold for an input.
public struct FuzzFinding: Error, Equatable, CustomStringConvertible {
    /// The target that found it.
    public let target: String
    /// What did not hold.
    public let message: String

    /// A finding of `target`.
    public init(target: String, message: String) {
        self.target = target
        self.message = message
    }

    /// `target: message`.
    public var description: String { "\(target): \(message)" }
}

/// Throws a ``FuzzFinding`` of `target` unless `condition` holds.
/// - Throws: ``FuzzFinding`` with `message` when `condition` is false.
func expect(_ condition: Bool, _ target: String, _ message: @autoclosure () -> String) throws(FuzzFinding) {
    guard condition else { throw FuzzFinding(target: target, message: message()) }
}

/// The input as text: its UTF-8 decoding, invalid sequences replaced (as a server reads a body).
func text(_ input: [UInt8]) -> String { String(decoding: input, as: UTF8.self) }

/// The input's lines (split on `\n`, empty lines kept), for targets that take several fields.
func lines(_ input: [UInt8]) -> [String] {
    input.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
}
