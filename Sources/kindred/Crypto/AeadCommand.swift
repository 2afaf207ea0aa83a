import ArgumentParser
import KindredCrypto

/// `kindred crypto aead encrypt|decrypt`: Tink AEAD with an AES-GCM keyset, stdin to stdout.
struct AeadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aead",
        abstract: "Encrypt or decrypt stdin with a Tink AES-GCM keyset (binary in, binary out).",
        subcommands: [Encrypt.self, Decrypt.self]
    )

    /// The options both subcommands take.
    struct Options: ParsableArguments {
        @Option(help: "The binary keyset file.")
        var keyset: String

        @Option(help: "Associated data (UTF-8), authenticated but not encrypted.")
        var aad: String = ""

        func primitive() throws -> TinkAEAD {
            let keyset = try TinkCommandSupport.readKeyset(path: keyset)
            return try TinkCommandSupport.checked { () throws(KindredCryptoError) in try TinkAEAD(keyset: keyset) }
        }
    }

    /// `aead encrypt`: encrypts stdin with the primary key.
    struct Encrypt: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Encrypt stdin with the keyset's primary key.")
        @OptionGroup var options: Options

        func run() throws {
            let aead = try options.primitive()
            let plaintext = StandardIO.readAll()
            let aad = Array(options.aad.utf8)
            StandardIO.writeBytes(try TinkCommandSupport.checked { () throws(KindredCryptoError) in
                try aead.encrypt(plaintext, associatedData: aad)
            })
        }
    }

    /// `aead decrypt`: decrypts stdin with any matching key.
    struct Decrypt: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Decrypt stdin with any enabled key of the keyset.")
        @OptionGroup var options: Options

        func run() throws {
            let aead = try options.primitive()
            let ciphertext = StandardIO.readAll()
            let aad = Array(options.aad.utf8)
            StandardIO.writeBytes(try TinkCommandSupport.checked { () throws(KindredCryptoError) in
                try aead.decrypt(ciphertext, associatedData: aad)
            })
        }
    }
}
