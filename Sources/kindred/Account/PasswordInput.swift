#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Foundation

/// Where a command takes a password from: never a flag, so it stays out of `ps` and the
/// shell's history.
struct PasswordInput: ParsableArguments {
    @Flag(help: "Read the password from the first line of standard input (else from KINDRED_PASSWORD).")
    var passwordStdin = false

    /// The password: the first line of stdin with `--password-stdin`, else `KINDRED_PASSWORD`.
    /// - Throws: `CommandFailure` when there is neither.
    func password() throws -> String {
        if passwordStdin {
            guard let line = Self.firstLineOfStandardInput() else {
                throw CommandFailure("--password-stdin: standard input is empty")
            }
            return line
        }
        guard let password = ProcessInfo.processInfo.environment["KINDRED_PASSWORD"] else {
            throw CommandFailure("no password: set KINDRED_PASSWORD or pass --password-stdin")
        }
        return password
    }

    /// The first line of standard input without its line ending; reads no further.
    static func firstLineOfStandardInput() -> String? {
        var line = [UInt8]()
        var byte: UInt8 = 0
        var sawAnything = false
        while read(0, &byte, 1) == 1 {
            sawAnything = true
            if byte == UInt8(ascii: "\n") { break }
            line.append(byte)
        }
        guard sawAnything else { return nil }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
    }
}
