import ArgumentParser
import KindredCrypto

/// `kindred crypto hybrid encrypt|decrypt`: Tink ECIES hybrid encryption, stdin to stdout.
struct HybridCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hybrid",
        abstract: "Hybrid-encrypt to a public keyset or decrypt with a private keyset (ECIES P-256, binary in, binary out).",
        subcommands: [Encrypt.self, Decrypt.self]
    )

    /// `hybrid encrypt`: encrypts stdin to the public keyset's primary key.
    struct Encrypt: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Encrypt stdin to a public keyset (see `keyset public`).")

        @Option(help: "The binary public keyset file.")
        var keyset: String

        @Option(help: "Context info (UTF-8), bound into the key derivation.")
        var context: String = ""

        func run() throws {
            let keyset = try TinkCommandSupport.readKeyset(path: keyset)
            let plaintext = StandardIO.readAll()
            let context = Array(context.utf8)
            StandardIO.writeBytes(try TinkCommandSupport.checked { () throws(KindredCryptoError) in
                try TinkHybridEncrypt(publicKeyset: keyset).encrypt(plaintext, contextInfo: context)
            })
        }
    }

    /// `hybrid decrypt`: decrypts stdin with the private keyset.
    struct Decrypt: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Decrypt stdin with a private keyset.")

        @Option(help: "The binary private keyset file.")
        var keyset: String

        @Option(help: "Context info (UTF-8) given at encryption.")
        var context: String = ""

        func run() throws {
            let keyset = try TinkCommandSupport.readKeyset(path: keyset)
            let ciphertext = StandardIO.readAll()
            let context = Array(context.utf8)
            StandardIO.writeBytes(try TinkCommandSupport.checked { () throws(KindredCryptoError) in
                try TinkHybridDecrypt(privateKeyset: keyset).decrypt(ciphertext, contextInfo: context)
            })
        }
    }
}
