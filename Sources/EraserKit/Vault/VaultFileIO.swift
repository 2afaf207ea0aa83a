#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import KindredCrypto

/// The Vault's encrypted files: streamed through Tink's streaming AEAD 1 MiB at a time (memory
/// stays at a few MiB whatever the file's size), written to a temporary name (`.<name>.<uuid>.tmp`,
/// mode 0600), synced, renamed into place, and the folder synced.
enum VaultFileIO {
    /// The chunk read from a file at a time.
    static let chunkSize = 1 << 20
    /// The suffix of files being written; recovery deletes leftovers.
    static let temporarySuffix = ".tmp"

    /// Encrypts the file at `source` into `destination`.
    /// - Returns: the plaintext's size in bytes.
    static func encrypt(file source: URL, to destination: URL, associatedData: [UInt8],
                        with aead: TinkStreamingAEAD) throws(EraserKitError) -> Int64 {
        let input = try PosixFile(reading: source.path)
        defer { input.close() }
        return try write(destination) { (output) throws(EraserKitError) -> Int64 in
            var encrypter = try crypto("encrypt \(source.lastPathComponent)") { () throws(KindredCryptoError) in
                try aead.makeEncrypter(associatedData: associatedData)
            }
            var total: Int64 = 0
            while true {
                let chunk = try input.read(upTo: chunkSize)
                if chunk.isEmpty { break }
                total += Int64(chunk.count)
                try output.write(try crypto("encrypt") { () throws(KindredCryptoError) in try encrypter.update(chunk) })
            }
            try output.write(try crypto("encrypt") { () throws(KindredCryptoError) in try encrypter.finish() })
            return total
        }
    }

    /// Encrypts `bytes` into `destination`.
    static func encrypt(bytes: [UInt8], to destination: URL, associatedData: [UInt8],
                        with aead: TinkStreamingAEAD) throws(EraserKitError) {
        try write(destination) { (output) throws(EraserKitError) in
            try output.write(try crypto("encrypt") { () throws(KindredCryptoError) in
                try aead.encrypt(bytes, associatedData: associatedData)
            })
        }
    }

    /// Decrypts `source`, handing each authenticated piece of plaintext to `body` in order.
    /// Nothing is handed over before its segment is authenticated; a failure stops at once.
    /// - Throws: `VaultError.corrupted` naming `what` when the file fails authentication or is
    ///   truncated, `.fileSystem` when it cannot be read, and whatever `body` throws.
    static func decrypt(_ source: URL, what: String, associatedData: [UInt8], with aead: TinkStreamingAEAD,
                        into body: ([UInt8]) throws(EraserKitError) -> Void) throws(EraserKitError) {
        let input = try PosixFile(reading: source.path)
        defer { input.close() }
        var decrypter: StreamingDecrypter
        do {
            decrypter = try aead.makeDecrypter(associatedData: associatedData)
        } catch {
            throw .vault(.corrupted(what: what, reason: error.description))
        }
        while true {
            let chunk = try input.read(upTo: chunkSize)
            if chunk.isEmpty { break }
            let plaintext: [UInt8]
            do { plaintext = try decrypter.update(chunk) } catch { throw .vault(.corrupted(what: what, reason: error.description)) }
            if !plaintext.isEmpty { try body(plaintext) }
        }
        let last: [UInt8]
        do { last = try decrypter.finish() } catch { throw .vault(.corrupted(what: what, reason: error.description)) }
        if !last.isEmpty { try body(last) }
    }

    /// Writes `destination` through `body` on a temporary file, then syncs and renames it into
    /// place; on any failure the temporary file is removed and `destination` is untouched.
    static func write<T>(_ destination: URL, _ body: (PosixFile) throws(EraserKitError) -> T) throws(EraserKitError) -> T {
        let folder = destination.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString)\(temporarySuffix)")
        let output = try PosixFile(creating: temporary.path)
        let result: T
        do {
            result = try body(output)
            try output.sync()
            output.close()
        } catch {
            output.close()
            unlink(temporary.path)
            throw error
        }
        guard rename(temporary.path, destination.path) == 0 else {
            let failure = PosixFile.failure(destination.path, "cannot rename into place")
            unlink(temporary.path)
            throw failure
        }
        try syncFolder(folder)
        return result
    }

    /// Removes `file`; a missing file is not an error.
    static func remove(_ file: URL) throws(EraserKitError) {
        if unlink(file.path) != 0 && errno != ENOENT {
            throw PosixFile.failure(file.path, "cannot remove")
        }
    }

    /// Syncs a folder, so a rename or removal in it survives a power cut.
    static func syncFolder(_ folder: URL) throws(EraserKitError) {
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw PosixFile.failure(folder.path, "cannot open") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw PosixFile.failure(folder.path, "cannot sync") }
    }

    /// Creates `folder` (mode 0700) when missing.
    static func makeFolder(_ folder: URL) throws(EraserKitError) {
        if mkdir(folder.path, 0o700) != 0 && errno != EEXIST {
            throw PosixFile.failure(folder.path, "cannot create")
        }
    }

    /// The names in `folder` (an empty list when it does not exist).
    static func names(in folder: URL) throws(EraserKitError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            if !FileManager.default.fileExists(atPath: folder.path) { return [] }
            throw .vault(.fileSystem(path: folder.path, reason: "cannot list: \(error.localizedDescription)"))
        }
    }

    /// Runs a KindredCrypto call during encryption; its failure cannot come from the input.
    private static func crypto<T>(_ what: String, _ body: () throws(KindredCryptoError) -> T) throws(EraserKitError) -> T {
        do {
            return try body()
        } catch {
            throw .vault(.invalidInput("cannot \(what): \(error.description)"))
        }
    }
}

/// One open file descriptor with typed, EINTR-safe reads and writes.
final class PosixFile {
    let path: String
    private var fd: Int32

    /// Opens `path` for reading.
    init(reading path: String) throws(EraserKitError) {
        self.path = path
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw Self.failure(path, "cannot open")
        }
    }

    /// Creates `path` (which must not exist) for writing, mode 0600.
    init(creating path: String) throws(EraserKitError) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.failure(path, "cannot create") }
    }

    deinit { close() }

    /// Up to `count` bytes; empty at the end of the file.
    func read(upTo count: Int) throws(EraserKitError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = buffer[filled...].withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw Self.failure(path, "cannot read")
            }
            if got == 0 { break }
            filled += got
        }
        buffer.removeLast(count - filled)
        return buffer
    }

    /// Writes all of `bytes`.
    func write(_ bytes: [UInt8]) throws(EraserKitError) {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw Self.failure(path, "cannot write") }
            written += count
        }
    }

    /// Flushes the file to storage.
    func sync() throws(EraserKitError) {
        guard fsync(fd) == 0 else { throw Self.failure(path, "cannot sync") }
    }

    /// Closes the descriptor (again is a no-op).
    func close() {
        if fd >= 0 {
            _ = systemClose(fd)
            fd = -1
        }
    }

    /// A file-system error naming `path`, the operation and the C library's reason for `errno`.
    static func failure(_ path: String, _ operation: String) -> EraserKitError {
        .vault(.fileSystem(path: path, reason: "\(operation): \(String(cString: strerror(errno)))"))
    }
}

/// `read(2)`, `write(2)` and `close(2)`, named so the methods above do not shadow them.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
