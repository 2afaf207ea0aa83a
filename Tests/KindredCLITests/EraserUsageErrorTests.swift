import Foundation
import KindredTestSupport
import Testing

/// Bad arguments to the `eraser` device commands: with `--json`, the commands' own checks give a
/// JSON error on standard output, one line on standard error and exit status 64; ArgumentParser's
/// own parse errors (unknown options, missing values) exit 64 with the reason on the first line.
@Suite struct EraserUsageErrorTests {
    @Test(arguments: [
        (["scan", "--photos", "/tmp", "--from", "2023-01-01", "--time-zone", "UTC"], "--from and --to go together"),
        (["scan", "--time-zone", "UTC"], "--photos is required (unless --resume)"),
        (["scan", "--resume", "--time-zone", "Mars/Olympus"], "unknown --time-zone Mars/Olympus"),
        (["scan", "--photos", "/tmp", "--batch-size", "0"], "--batch-size must be 1 to 10000, not 0"),
        (["scan", "--photos", "/tmp", "--from", "2023-13", "--to", "2023-12-31"], "--from must be a day, YYYY-MM-DD, not 2023-13"),
        (["decide", "asset:x", "shred"], "the decision must be vault, delete or keep, not shred"),
        (["apply", "--now", "yesterday"], "--now must be an ISO 8601 instant (2024-07-14T18:30:05Z), not yesterday"),
        (["tick", "--now", "soon"], "--now must be an ISO 8601 instant (2024-07-14T18:30:05Z), not soon"),
        (["review", "--out", "/tmp/look.jpg"], "--out needs --open KEY"),
    ])
    func ownChecksGiveOneLineAndAJSONError(arguments: [String], message: String) throws {
        let folder = try TemporaryDirectory()
        let cli = EraserCLI(profile: folder.url.appendingPathComponent("profile"))
        let result = try cli.run(arguments + ["--json"])
        #expect(result.status == 64)
        #expect(result.stderr == "error: \(message) (usage)\n")
        let error = try #require(try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any])
        #expect(error["error"] as? [String: String] == ["code": "usage", "message": message])

        let plain = try cli.run(arguments)
        #expect(plain.status == 64)
        #expect(plain.stderr.hasPrefix("Error: \(message)\n"))
        #expect(plain.text.isEmpty)
    }

    @Test func parseErrorsExitWithTheReasonFirst() throws {
        let folder = try TemporaryDirectory()
        let cli = EraserCLI(profile: folder.url.appendingPathComponent("profile"))
        let unknown = try cli.run(["scan", "--photos", "/tmp", "--frm", "2023-01-01", "--json"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr == "Error: Unknown option '--frm'. Did you mean '--from'?\n")
        #expect(unknown.text == #"{"error":{"code":"usage","message":"Unknown option '--frm'. Did you mean '--from'?"}}"# + "\n")
        let missing = try cli.run(["decide", "asset:x", "--json"])
        #expect(missing.status == 64)
        #expect(missing.stderr == "Error: Missing expected argument '<decision>'\n")
        // Without --json: ArgumentParser's reason followed by the usage block.
        let plain = try cli.run(["decide", "asset:x"])
        #expect(plain.status == 64)
        #expect(plain.stderr.hasPrefix("Error: Missing expected argument '<decision>'\n"))
        #expect(plain.stderr.contains("Usage: kindred eraser decide"))
    }
}
