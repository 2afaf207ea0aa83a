import ArgumentParser
import KindredCrypto

/// `kindred crypto invite create|verifier|open`: Closer's invite transport from the command line.
/// Spec: `docs/wire-formats.md`, "Invite transport".
struct InviteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invite",
        abstract: "Closer invites: encrypt the recovery phrase under a fresh invite secret, derive the accept verifier, open the phrase.",
        subcommands: [Create.self, Verifier.self, Open.self]
    )

    /// The invite's public fields, read from the JSON `create` printed.
    static func fields(_ path: String) throws -> JSONFields {
        let bytes = try StandardIO.readFile(path)
        do { return try JSONFields(bytes, format: "invite") } catch { throw CommandFailure(error) }
    }

    /// `invite create --code C`: phrase on stdin → JSON with the share string and the server's fields.
    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Encrypt the phrase on stdin for an invite code; print {share,encryptedPhrase,verifier,kdfSalt,kdfParams} as JSON (share stays with the inviter)."
        )

        @Option(help: "The six-character invite code the server assigned (default: a fresh Crockford code).")
        var code: String?

        @OptionGroup var cost: KDFCostOptions

        func run() throws {
            let phrase = try PhraseCommand.readPhrase()
            do {
                let inviteCode = try code.map(InviteCode.canonicalize) ?? InviteCode.generate()
                let parameters = try cost.parameters()
                let created = try InviteTransport.create(phrase: phrase, code: inviteCode, parameters: parameters)
                StandardIO.writeLine(try CanonicalJSON.string(.object([
                    "code": .string(inviteCode),
                    "share": .string(try InviteShare(code: inviteCode, secret: created.secret).text),
                    "encryptedPhrase": .string(created.encryptedPhrase),
                    "verifier": .string(created.verifier),
                    "kdfSalt": .string(created.kdfSalt),
                    "kdfParams": .string(created.kdfParams),
                ])))
            } catch {
                throw CommandFailure(error)
            }
        }
    }

    /// `invite verifier SHARE FILE`: the acceptor's proof for `acceptInvite`.
    struct Verifier: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verifier",
            abstract: "Print the verifier:v1: proof an acceptor sends, from the share string and the invite's kdfSalt/kdfParams (JSON file)."
        )

        @Argument(help: "The share string CODE-XXXXX-XXXXX-XXXX.")
        var share: String

        @Argument(help: "A JSON file with kdfSalt and kdfParams (for example what `invite create` printed).")
        var file: String

        func run() throws {
            let fields = try InviteCommand.fields(file)
            do {
                let parsed = try InviteShare(parsing: share)
                StandardIO.writeLine(try InviteTransport.verifier(secret: parsed.secret, code: parsed.code,
                                                                  kdfSalt: fields.string("kdfSalt"), kdfParams: fields.string("kdfParams")))
            } catch {
                throw CommandFailure(error)
            }
        }
    }

    /// `invite open SHARE FILE`: decrypts the phrase (after a successful accept).
    struct Open: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "open",
            abstract: "Decrypt the recovery phrase of an invite (JSON file with encryptedPhrase, kdfSalt, kdfParams) with the share string."
        )

        @Argument(help: "The share string CODE-XXXXX-XXXXX-XXXX.")
        var share: String

        @Argument(help: "A JSON file with encryptedPhrase, kdfSalt and kdfParams.")
        var file: String

        func run() throws {
            let fields = try InviteCommand.fields(file)
            do {
                let parsed = try InviteShare(parsing: share)
                let phrase = try InviteTransport.decryptPhrase(fields.string("encryptedPhrase"), secret: parsed.secret, code: parsed.code,
                                                               kdfSalt: fields.string("kdfSalt"), kdfParams: fields.string("kdfParams"))
                StandardIO.writeLine(phrase.normalized)
            } catch {
                throw CommandFailure(error)
            }
        }
    }
}
