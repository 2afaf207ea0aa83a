import ArgumentParser
import CloserKit
import Foundation
import KindredCrypto

/// `kindred closer migrate`: drives the couple's encryption migration (v0 → v1 → v2) from this
/// phone: start with a new couple key and phrase, rewrite this account's plaintext answers into
/// `enc:v1:`, complete. Running it again after an interruption continues where it stopped.
struct CloserMigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Move an unencrypted (legacy) couple to end-to-end encryption; resumable.",
        discussion: """
            The first partner to run it makes the couple key and a recovery phrase (printed once, \
            also by `phrase show`); the other partner runs `recover --phrase …` with it, then `migrate`. \
            The couple is fully encrypted (version 2) once both have completed.
            """
    )
    @OptionGroup var options: CloserPlayOptions

    func run() async throws {
        try await options.run { device in
            let report = try await device.migrateEncryption()
            var lines = ["couple: \(report.coupleId)", "encryption version: \(report.encryptionVersion)"]
            if report.startedHere { lines.append("started the migration; recovery phrase: \(try device.phrase().normalized)") }
            if !report.resumed.isEmpty { lines.append("resumed after \(report.resumed.count) answer(s) rewritten earlier") }
            lines.append("rewrote \(report.rewritten.count) answer(s)")
            lines.append(report.encryptionVersion == 2 ? "the couple is fully encrypted" : "waiting for the partner to run migrate")
            try options.output(report, lines: lines)
        }
    }
}
