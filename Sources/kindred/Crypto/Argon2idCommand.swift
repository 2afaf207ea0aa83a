import ArgumentParser
import KindredCrypto

/// `kindred crypto argon2id hash|phc|verify`: Argon2id (RFC 9106) raw tags and PHC strings.
///
/// Every subcommand reads the password from standard input and uses its bytes exactly as read:
/// no trailing newline is removed (use `echo -n` or `printf %s`), matching `argon2 … -r`.
struct Argon2idCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "argon2id",
        abstract: "Argon2id password hashing (RFC 9106); the password is read from stdin, byte for byte.",
        subcommands: [Hash.self, PHCHash.self, Verify.self],
        defaultSubcommand: Hash.self
    )

    /// The cost options shared by `hash` and `phc`.
    struct CostOptions: ParsableArguments {
        @Option(name: .customShort("t"), help: ArgumentHelp("Iterations (passes).", valueName: "passes"))
        var iterations: UInt32 = Argon2id.Parameters.password.iterations

        @Option(name: .customShort("m"), help: ArgumentHelp("Memory in KiB.", valueName: "KiB"))
        var memoryKiB: UInt32 = Argon2id.Parameters.password.memoryKiB

        @Option(name: .customShort("p"), help: ArgumentHelp("Parallelism (lanes).", valueName: "lanes"))
        var parallelism: UInt32 = Argon2id.Parameters.password.parallelism

        @Option(name: .customShort("l"), help: ArgumentHelp("Tag length in bytes.", valueName: "bytes"))
        var length: Int = Argon2id.Parameters.password.outputLength

        /// The parameters these options describe, with an optional secret and associated data.
        func parameters(secret: [UInt8] = [], associatedData: [UInt8] = []) -> Argon2id.Parameters {
            Argon2id.Parameters(
                memoryKiB: memoryKiB, iterations: iterations, parallelism: parallelism,
                outputLength: length, secret: secret, associatedData: associatedData
            )
        }
    }

    /// Decodes a hex option, failing with one line.
    static func hexOption(_ text: String?, name: String) throws -> [UInt8] {
        guard let text else { return [] }
        do { return try Hex.decode(text) } catch { throw CommandFailure("\(name): \(error.description)") }
    }

    /// `argon2id hash` (the default): prints the raw tag as lower-case hex.
    struct Hash: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hash", abstract: "Print the Argon2id tag of stdin as lower-case hex.",
            discussion: """
                The password is every byte of stdin, with no newline stripped: \
                echo -n password | kindred crypto argon2id --salt-hex 736f6d6573616c7473616c74 -t 3 -m 46080 -p 1 -l 32 \
                prints the same tag as: echo -n password | argon2 somesaltsalt -id -t 3 -k 46080 -p 1 -l 32 -r
                """
        )

        @Option(help: "The salt, in hex (at least 8 bytes).")
        var saltHex: String

        @OptionGroup var cost: CostOptions

        @Option(help: "Optional secret K, in hex.")
        var secretHex: String?

        @Option(help: "Optional associated data X, in hex.")
        var adHex: String?

        @Flag(help: .hidden)
        var noHash = false

        func run() throws {
            let salt = try Argon2idCommand.hexOption(saltHex, name: "--salt-hex")
            let parameters = cost.parameters(
                secret: try Argon2idCommand.hexOption(secretHex, name: "--secret-hex"),
                associatedData: try Argon2idCommand.hexOption(adHex, name: "--ad-hex")
            )
            let password = StandardIO.readAll()
            // --no-hash: parse and read everything but compute nothing (the RSS baseline of scripts/bench-argon2).
            if noHash { return }
            do {
                let tag = try Argon2id.hash(password: password, salt: salt, parameters: parameters)
                StandardIO.writeLine(Hex.encode(tag))
            } catch {
                throw CommandFailure(error)
            }
        }
    }
}

extension Argon2idCommand {
    /// `argon2id phc`: prints a PHC string for the password on stdin.
    struct PHCHash: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "phc", abstract: "Print the PHC string ($argon2id$v=19$…) of stdin; defaults m=19456, t=2, p=1."
        )

        @Option(help: "The salt, in hex (default: 16 random bytes).")
        var saltHex: String?

        @OptionGroup var cost: CostOptions

        func run() throws {
            let salt = try saltHex.map { try Argon2idCommand.hexOption($0, name: "--salt-hex") }
            let password = StandardIO.readAll()
            do {
                StandardIO.writeLine(try Argon2id.phcHash(password: password, parameters: cost.parameters(), salt: salt))
            } catch {
                throw CommandFailure(error)
            }
        }
    }

    /// `argon2id verify PHC`: exit 0 if the password on stdin matches, non-zero with one line otherwise.
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify", abstract: "Check the password on stdin against a PHC string (exit 0 on a match)."
        )

        @Argument(help: "The PHC string, $argon2id$v=19$m=…,t=…,p=…$<salt>$<tag>.")
        var phc: String

        func run() throws {
            let password = StandardIO.readAll()
            let matches: Bool
            do {
                matches = try Argon2id.verify(password: password, phc: phc)
            } catch {
                throw CommandFailure(error)
            }
            guard matches else { throw CommandFailure("argon2id: password does not match") }
        }
    }
}
