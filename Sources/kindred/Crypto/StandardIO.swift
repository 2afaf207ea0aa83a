#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import KindredCrypto

/// Reading stdin, writing stdout and failing with one clear line, for the crypto commands.
enum StandardIO {
    /// Reads all of standard input as bytes.
    static func readAll() -> [UInt8] {
        var out = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            out.append(contentsOf: buffer[0..<n])
        }
        return out
    }

    /// Reads standard input as text, without one trailing newline.
    static func readText() -> String {
        var text = String(decoding: readAll(), as: UTF8.self)
        if text.hasSuffix("\r\n") { text.removeLast(2) } else if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// Writes bytes to standard output.
    static func writeBytes(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            offset += n
        }
    }

    /// Writes a line of text to standard output.
    static func writeLine(_ text: String) {
        writeBytes(Array((text + "\n").utf8))
    }

    /// Reads a whole file.
    static func readFile(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw ValidationError("cannot open \(path)") }
        defer { close(fd) }
        var out = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 { throw ValidationError("cannot read \(path)") }
            if n == 0 { break }
            out.append(contentsOf: buffer[0..<n])
        }
        return out
    }
}

/// A failure reported by a crypto command as one line on stderr with a non-zero exit.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ error: KindredCryptoError) { description = error.description }
    init(_ message: String) { description = message }
}
