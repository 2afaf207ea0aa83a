import ArgumentParser
import KindredCrypto

/// `kindred crypto inspect STRING`: names the wire format of a string and says whether it is
/// valid, and why not. Exit status 0 when valid, 1 when not. Never decrypts.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Say which Kindred wire format a string is and whether it is valid (exit 0 valid, 1 invalid)."
    )

    @Argument(help: "The string (enc:v1:, sealed:v1:, keybox:v1:, pub:v1:, sha256:, invite:v1:, verifier:v1:, $argon2id$, invite code or share, kdfParams JSON, Base64 keyset).")
    var text: String

    func run() throws {
        let inspection = WireInspection.inspect(text)
        StandardIO.writeLine(inspection.summary)
        if !inspection.isValid { throw ExitCode(1) }
    }
}
