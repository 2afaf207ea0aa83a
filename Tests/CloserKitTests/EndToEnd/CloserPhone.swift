import Foundation
import KindredTestSupport
import Testing

/// One simulated phone: `kindred closer …` with its own `--profile` folder against a live server.
struct CloserPhone {
    /// Cheap Argon2id for invites and wraps made in debug builds (the acceptor follows the invite's).
    static let environment: [String: String] = ProcessInfo.processInfo.environment
        .filter { !$0.key.hasPrefix("KINDRED_") }
        .merging(["KINDRED_CLOSER_KDF_MEMORY_KIB": "256", "KINDRED_CLOSER_KDF_ITERATIONS": "1"]) { $1 }

    let profile: String
    let server: URL

    /// Runs `kindred closer ARGS --profile P --server S`.
    func run(_ arguments: [String]) throws -> ChildProcess.Result {
        try ChildProcess.run(ChildProcess.kindredExecutable.path,
                             ["closer"] + arguments + ["--profile", profile, "--server", server.absoluteString],
                             environment: Self.environment)
    }

    /// Runs a command that must succeed; returns its standard output.
    func succeed(_ arguments: [String]) throws -> String {
        let result = try run(arguments)
        guard result.status == 0 else {
            throw PhoneFailure(description: "kindred closer \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
        }
        return result.text
    }

    /// The JSON document a successful `--json` command printed (exactly one line).
    func json(_ arguments: [String]) throws -> [String: Any] {
        let text = try succeed(arguments + ["--json"])
        #expect(text.split(separator: "\n").count == 1, "one document: \(text)")
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    /// The error code of a `--json` command that must fail, and its standard error (never empty).
    func failure(_ arguments: [String]) throws -> (code: String?, stderr: String) {
        let result = try run(arguments + ["--json"])
        #expect(result.status != 0, "kindred closer \(arguments.joined(separator: " ")) succeeded")
        #expect(!result.stderr.isEmpty)
        let object = try? JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any]
        return ((object?["error"] as? [String: Any])?["code"] as? String, result.stderr)
    }

    /// Signs up `name@example.com`.
    func signUp(_ name: String) throws {
        _ = try succeed(["signup", "--email", "\(name)@example.com", "--password", "correct horse \(name)", "--name", name])
    }

    /// A command that failed.
    struct PhoneFailure: Error, CustomStringConvertible {
        let description: String
    }
}
