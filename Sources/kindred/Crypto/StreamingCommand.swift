#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import KindredCrypto

/// `kindred crypto streaming encrypt|decrypt --keyset F [--aad S]`: Tink streaming AEAD
/// (AES256_GCM_HKDF_1MB) from stdin to stdout, in bounded memory (about one 1 MiB segment).
struct StreamingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streaming",
        abstract: "Stream stdin to stdout through Tink's streaming AEAD (AES256_GCM_HKDF_1MB).",
        subcommands: [Encrypt.self, Decrypt.self]
    )

    /// The options both directions share.
    struct Options: ParsableArguments {
        @Option(help: "A binary Tink keyset file holding AesGcmHkdfStreamingKey keys.")
        var keyset: String

        @Option(help: "Associated data (UTF-8 text), authenticated but not stored.")
        var aad: String = ""

        /// The keyset's primitive.
        func primitive() throws -> TinkStreamingAEAD {
            let keyset = try TinkCommandSupport.readKeyset(path: keyset)
            return try TinkCommandSupport.checked { () throws(KindredCryptoError) in try TinkStreamingAEAD(keyset: keyset) }
        }
    }

    /// `kindred crypto streaming encrypt`.
    struct Encrypt: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Encrypt stdin with the keyset's primary key.")
        @OptionGroup var options: Options

        func run() throws {
            var encrypter = try options.primitive().makeEncrypter(associatedData: Array(options.aad.utf8))
            try StreamPump.run { (chunk) throws(KindredCryptoError) in try encrypter.update(chunk) }
                finish: { () throws(KindredCryptoError) in try encrypter.finish() }
        }
    }

    /// `kindred crypto streaming decrypt`.
    struct Decrypt: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Decrypt stdin; a non-zero exit means the output written so far must be discarded.")
        @OptionGroup var options: Options

        func run() throws {
            var decrypter = try options.primitive().makeDecrypter(associatedData: Array(options.aad.utf8))
            try StreamPump.run { (chunk) throws(KindredCryptoError) in try decrypter.update(chunk) }
                finish: { () throws(KindredCryptoError) in try decrypter.finish() }
        }
    }
}

/// Moves stdin through a streaming transform to stdout with a fixed 64 KiB read buffer.
enum StreamPump {
    static let chunkSize = 1 << 16

    /// Reads stdin to its end, writing `update(chunk)` after each read and `finish()` at the end.
    /// - Throws: `CommandFailure` for a crypto error or a failed read/write.
    static func run(update: (_ chunk: [UInt8]) throws(KindredCryptoError) -> [UInt8],
                    finish: () throws(KindredCryptoError) -> [UInt8]) throws {
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        do {
            while true {
                let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw CommandFailure("cannot read standard input")
                }
                if n == 0 { break }
                try emit(update(Array(buffer[0..<n])))
            }
            try emit(finish())
        } catch let error as KindredCryptoError {
            throw CommandFailure(error)
        }
    }

    /// Writes all bytes to stdout, failing (rather than truncating silently) on a write error.
    private static func emit(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw CommandFailure("cannot write standard output") }
            offset += n
        }
    }
}
