import Foundation
import KindredTestSupport
import Testing

/// Runs `soulmate_interop.py` (Python's `cryptography` package) as the independent peer of the
/// interop tests.
///
/// When `python3` or its `cryptography` module is missing the tests are skipped with a message,
/// unless the environment has `CI=true`: then they run and fail with that message.
enum PythonSoulMate {
    /// `soulmate_interop.py`, next to this file.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("soulmate_interop.py")

    /// Whether `CI=true` is set.
    static let isCI = ChildProcess.isCI

    /// Whether `python3 -c "import cryptography…"` succeeds.
    static let isAvailable: Bool = {
        let probe = "from cryptography.hazmat.primitives.ciphers.aead import AESGCM; "
            + "from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey"
        guard let result = try? ChildProcess.run("/usr/bin/env", ["python3", "-c", probe]) else { return false }
        return result.status == 0
    }()

    /// Run the interop tests when the peer is here, and always on CI (where a missing peer fails).
    static var shouldRun: Bool { isAvailable || isCI }

    /// A failure of the peer itself (missing, crashed, or unreadable output).
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs a batch of ops and returns one result per op (each a dictionary of strings).
    static func run(_ ops: [[String: String]]) throws -> [[String: String]] {
        guard isAvailable else {
            throw Failure(description: "python3 with the `cryptography` module is required for the SoulMate interop tests (pip install cryptography)")
        }
        let request = try JSONEncoder().encode(["ops": ops])
        let result = try ChildProcess.run("/usr/bin/env", ["python3", script.path], input: Array(request))
        guard result.status == 0 else {
            throw Failure(description: "soulmate_interop.py exited with \(result.status): \(result.stderr)")
        }
        struct Response: Decodable { let results: [[String: String]] }
        let response = try JSONDecoder().decode(Response.self, from: Data(result.stdout))
        guard response.results.count == ops.count else {
            throw Failure(description: "soulmate_interop.py answered \(response.results.count) of \(ops.count) ops")
        }
        return response.results
    }

    /// Runs a batch of ops that must all succeed and returns their results.
    static func runAll(_ ops: [[String: String]]) throws -> [[String: String]] {
        let results = try run(ops)
        for (op, result) in zip(ops, results) {
            if let error = result["error"] { throw Failure(description: "Python failed \(op["op"] ?? "?"): \(error)") }
        }
        return results
    }
}
