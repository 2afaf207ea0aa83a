import ArgumentParser
import KindredCrypto

/// `kindred crypto keyset …`: create Tink keysets, derive public keysets, list keys.
struct KeysetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keyset",
        abstract: "Create and inspect binary Tink keysets (CleartextKeysetHandle / BinaryKeysetWriter format).",
        subcommands: [New.self, Public.self, Show.self]
    )

    /// `keyset new TEMPLATE [--raw]`: a fresh keyset on stdout.
    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a new binary keyset with one primary key to stdout.",
            discussion: "Templates: \(KeysetTemplate.helpText)."
        )

        @Argument(help: "The key template.")
        var template: KeysetTemplate

        @Flag(help: "Use the RAW output prefix (no 5-byte key id prefix on ciphertexts) instead of TINK.")
        var raw = false

        func run() {
            StandardIO.writeBytes(template.generate(raw ? .raw : .tink).serialized())
        }
    }

    /// `keyset public`: private ECIES keyset on stdin, public keyset on stdout.
    struct Public: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read a private hybrid keyset on stdin and write its public keyset to stdout."
        )

        @Flag(help: "Print Closer's pub:v1: text (the form published for device keys) instead of the binary keyset.")
        var pub = false

        func run() throws {
            let keyset = try TinkCommandSupport.parseKeyset(StandardIO.readAll())
            let publicKeyset = try TinkCommandSupport.checked { () throws(KindredCryptoError) in try keyset.publicKeyset() }
            if pub {
                StandardIO.writeLine(try TinkCommandSupport.checked { () throws(KindredCryptoError) in try CloserPublicKey.encode(publicKeyset) })
            } else {
                StandardIO.writeBytes(publicKeyset.serialized())
            }
        }
    }

    /// `keyset show`: a listing of the keys, without key material.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read a keyset on stdin and list its keys: id, type, status, prefix, primary. Never prints key material."
        )

        func run() throws {
            let keyset = try TinkCommandSupport.parseKeyset(StandardIO.readAll())
            for line in Self.listing(keyset) { StandardIO.writeLine(line) }
        }

        /// The lines `show` prints.
        static func listing(_ keyset: Keyset) -> [String] {
            var lines = ["primary key id: \(keyset.primaryKeyID)", "keys: \(keyset.keys.count)"]
            for key in keyset.keys {
                let type = key.keyData.typeURL.split(separator: "/").last.map(String.init) ?? key.keyData.typeURL
                lines.append("key id \(key.keyID)\(key.keyID == keyset.primaryKeyID ? " (primary)" : ""): type \(type)"
                    + ", status \(name(key.status)), prefix \(name(key.outputPrefixType)), material \(name(key.keyData.keyMaterialType))")
            }
            return lines
        }

        private static func name(_ status: Keyset.KeyStatus) -> String {
            switch status {
            case .unknown: "UNKNOWN"
            case .enabled: "ENABLED"
            case .disabled: "DISABLED"
            case .destroyed: "DESTROYED"
            case .other(let value): "UNRECOGNIZED(\(value))"
            }
        }

        private static func name(_ prefix: Keyset.OutputPrefixType) -> String {
            switch prefix {
            case .unknown: "UNKNOWN"
            case .tink: "TINK"
            case .legacy: "LEGACY"
            case .raw: "RAW"
            case .crunchy: "CRUNCHY"
            }
        }

        private static func name(_ material: Keyset.KeyMaterialType) -> String {
            switch material {
            case .unknown: "UNKNOWN"
            case .symmetric: "SYMMETRIC"
            case .asymmetricPrivate: "ASYMMETRIC_PRIVATE"
            case .asymmetricPublic: "ASYMMETRIC_PUBLIC"
            case .remote: "REMOTE"
            }
        }
    }
}
