import ArgumentParser
import KindredCrypto

/// `kindred crypto phrase new|wrap|unwrap`: Closer recovery phrases and the couple-key wrap.
/// Spec: `docs/wire-formats.md`, "Recovery phrase" and "Couple-key wrap".
struct PhraseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "phrase",
        abstract: "Closer recovery phrases: generate one, wrap a couple keyset under it, unwrap it.",
        subcommands: [New.self, Wrap.self, Unwrap.self]
    )

    /// Reads and parses the phrase on standard input.
    static func readPhrase() throws -> RecoveryPhrase {
        do { return try RecoveryPhrase(parsing: StandardIO.readText()) } catch { throw CommandFailure(error) }
    }

    /// `phrase new`: prints ten fresh words.
    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "new", abstract: "Print a new 10-word recovery phrase (80 bits).")

        func run() {
            StandardIO.writeLine(RecoveryPhrase.generate().normalized)
        }
    }

    /// `phrase wrap --keyset F`: phrase on stdin → JSON `{wrappedCoupleKey, kdfSalt, kdfParams}`.
    struct Wrap: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "wrap",
            abstract: "Wrap a binary couple keyset under the phrase read from stdin; print {wrappedCoupleKey,kdfSalt,kdfParams} as JSON."
        )

        @Option(help: "The binary Tink keyset file to wrap.")
        var keyset: String

        @OptionGroup var cost: KDFCostOptions

        func run() throws {
            let keysetBytes = try StandardIO.readFile(keyset)
            let phrase = try PhraseCommand.readPhrase()
            do {
                let parameters = try cost.parameters()
                let wrapped = try WrappedCoupleKey.wrap(Keyset(serialized: keysetBytes), phrase: phrase, parameters: parameters)
                StandardIO.writeLine(try CanonicalJSON.string(.object([
                    "wrappedCoupleKey": .string(wrapped.wrappedCoupleKey),
                    "kdfSalt": .string(wrapped.kdfSalt),
                    "kdfParams": .string(wrapped.kdfParams),
                ])))
            } catch {
                throw CommandFailure(error)
            }
        }
    }

    /// `phrase unwrap FILE`: the JSON `wrap` printed, phrase on stdin → binary keyset on stdout.
    struct Unwrap: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unwrap",
            abstract: "Unwrap the couple keyset in a {wrappedCoupleKey,kdfSalt,kdfParams} JSON file with the phrase on stdin; write the binary keyset to stdout."
        )

        @Argument(help: "The JSON file `phrase wrap` printed (or the three fields of a couple document).")
        var file: String

        func run() throws {
            let json = try StandardIO.readFile(file)
            let phrase = try PhraseCommand.readPhrase()
            do {
                let fields = try JSONFields(json, format: "wrapped couple key")
                let wrapped = WrappedCoupleKey(wrappedCoupleKey: try fields.string("wrappedCoupleKey"),
                                               kdfSalt: try fields.string("kdfSalt"), kdfParams: try fields.string("kdfParams"))
                StandardIO.writeBytes(try wrapped.unwrap(phrase: phrase).serialized())
            } catch {
                throw CommandFailure(error)
            }
        }
    }
}

/// The string members of a small JSON object read by a command.
struct JSONFields {
    let members: [String: CanonicalJSON.Value]
    let format: String

    /// Parses a JSON object (surrounding whitespace allowed).
    init(_ bytes: [UInt8], format: String) throws(KindredCryptoError) {
        guard bytes.count <= 1 << 20 else { throw .tooLong(format: format, limit: 1 << 20) }
        guard case .object(let members) = try CanonicalJSON.parse(bytes, format: format) else {
            throw .malformed(format: format, reason: "expected a JSON object")
        }
        self.members = members
        self.format = format
    }

    /// A required string member.
    func string(_ name: String) throws(KindredCryptoError) -> String {
        guard let value = optionalString(name) else { throw .malformed(format: format, reason: "member \(name) is missing or not a string") }
        return value
    }

    /// An optional string member.
    func optionalString(_ name: String) -> String? {
        if case .string(let s) = members[name] { return s }
        return nil
    }
}
