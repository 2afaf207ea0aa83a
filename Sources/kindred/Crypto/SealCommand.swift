import ArgumentParser
import KindredCrypto

/// The identifiers shared by `seal` and `open`.
struct SealedAnswerOptions: ParsableArguments {
    @Option(help: "The binary Tink AES-256-GCM couple keyset file.")
    var coupleKeyset: String

    @Option(help: "The couple id.")
    var couple: String

    @Option(help: "The question id.")
    var question: String

    @Option(help: "The author's user id.")
    var user: String

    /// The couple keyset and the sealed-answer context.
    func load() throws -> (Keyset, SealedAnswerContext) {
        let bytes = try StandardIO.readFile(coupleKeyset)
        do {
            return (try Keyset(serialized: bytes), try SealedAnswerContext(coupleId: couple, questionId: question, userId: user))
        } catch {
            throw CommandFailure(error)
        }
    }
}

/// `kindred crypto seal`: seals the answer on stdin as a Closer sealed answer.
/// Spec: `docs/wire-formats.md`, "Sealed-answer flow".
struct SealCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seal",
        abstract: "Seal the answer on stdin (one trailing newline dropped); print {payload,commitment,commitmentSeal,oneTimeKey[,keybox]} as JSON."
    )

    @OptionGroup var options: SealedAnswerOptions

    @Option(help: "Also wrap the one-time key to this partner's pub:v1 key (adds \"keybox\").")
    var keyboxFor: String?

    @Option(help: "The partner's user id (required with --keybox-for).")
    var recipient: String?

    func run() throws {
        let (couple, context) = try options.load()
        let answer = StandardIO.readText()
        do {
            let sealed = try SealedAnswer.seal(answer: answer, context: context, coupleKeyset: couple)
            var output: [String: CanonicalJSON.Value] = [
                "payload": .string(sealed.payload),
                "commitment": .string(sealed.commitment),
                "commitmentSeal": .string(sealed.commitmentSeal),
                "oneTimeKey": .string(Base64.encode(sealed.oneTimeKey, alphabet: .urlSafeNoPadding)),
            ]
            if let keyboxFor {
                guard let recipient else { throw CommandFailure("--keybox-for needs --recipient") }
                let boxContext = try KeyboxContext(coupleId: context.coupleId, questionId: context.questionId,
                                                   senderUserId: context.userId, recipientUserId: recipient)
                output["keybox"] = .string(try Keybox.wrap(oneTimeKey: sealed.oneTimeKey,
                                                           recipientPublicKeyset: CloserPublicKey.decode(keyboxFor), context: boxContext))
            }
            StandardIO.writeLine(try CanonicalJSON.string(.object(output)))
        } catch let error as KindredCryptoError {
            throw CommandFailure(error)
        }
    }
}

/// `kindred crypto open`: opens a sealed answer (the JSON `seal` printed, on stdin) and checks
/// the commitment, the commitment seal and the payload's identifiers.
struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open the sealed answer JSON on stdin with its one-time key, or with its keybox and the recipient's private keyset; print the answer."
    )

    @OptionGroup var options: SealedAnswerOptions

    @Option(help: "The one-time key (base64url); defaults to the JSON's \"oneTimeKey\".")
    var oneTimeKey: String?

    @Option(help: "The recipient's binary ECIES private keyset file: open through the JSON's \"keybox\" instead.")
    var privateKeyset: String?

    @Option(help: "The recipient's user id (with --private-keyset).")
    var recipient: String?

    func run() throws {
        let (couple, context) = try options.load()
        let privateBytes = try privateKeyset.map(StandardIO.readFile)
        do {
            let fields = try JSONFields(StandardIO.readAll(), format: "sealed answer")
            let payload = try fields.string("payload"), commitment = try fields.string("commitment")
            let seal = try fields.string("commitmentSeal")
            let answer: String
            if let privateBytes {
                guard let recipient else { throw CommandFailure("--private-keyset needs --recipient") }
                let boxContext = try KeyboxContext(coupleId: context.coupleId, questionId: context.questionId,
                                                   senderUserId: context.userId, recipientUserId: recipient)
                answer = try SealedAnswer.open(payload: payload, commitment: commitment, commitmentSeal: seal, keybox: fields.string("keybox"),
                                               recipientPrivateKeyset: Keyset(serialized: privateBytes), context: boxContext, coupleKeyset: couple)
            } else {
                guard let keyText = oneTimeKey ?? fields.optionalString("oneTimeKey") else {
                    throw CommandFailure("no one-time key: pass --one-time-key, or --private-keyset with a keybox")
                }
                let key = try Base64.decode(keyText, alphabet: .urlSafeNoPadding, format: "one-time key")
                answer = try SealedAnswer.open(payload: payload, commitment: commitment, commitmentSeal: seal, oneTimeKey: key,
                                               context: context, coupleKeyset: couple)
            }
            StandardIO.writeLine(answer)
        } catch let error as KindredCryptoError {
            throw CommandFailure(error)
        }
    }
}
