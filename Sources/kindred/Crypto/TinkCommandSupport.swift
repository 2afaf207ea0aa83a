import KindredCrypto

/// Shared steps of the Tink commands (`keyset`, `aead`, `hybrid`).
enum TinkCommandSupport {
    /// Reads a binary keyset from a file.
    /// - Throws: `CommandFailure` with one line when the file is unreadable or not a keyset.
    static func readKeyset(path: String) throws(CommandFailure) -> Keyset {
        let bytes: [UInt8]
        do {
            bytes = try StandardIO.readFile(path)
        } catch {
            throw CommandFailure("cannot read keyset file \(path)")
        }
        return try parseKeyset(bytes)
    }

    /// Parses a binary keyset (for example one read from stdin).
    /// - Throws: `CommandFailure` naming the first problem.
    static func parseKeyset(_ bytes: [UInt8]) throws(CommandFailure) -> Keyset {
        guard !bytes.isEmpty else { throw CommandFailure("keyset: no input (expected a binary Tink keyset)") }
        return try checked { () throws(KindredCryptoError) in try Keyset(serialized: bytes) }
    }

    /// Runs a KindredCrypto call, turning its error into a one-line command failure.
    static func checked<T>(_ body: () throws(KindredCryptoError) -> T) throws(CommandFailure) -> T {
        do {
            return try body()
        } catch {
            throw CommandFailure(error)
        }
    }
}
