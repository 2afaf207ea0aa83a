import Foundation
import KindredTestSupport
import Testing

/// Runs `tink_interop.py` (Python Tink, C++ Tink underneath) as the peer of the interop tests.
///
/// When `python3` or its `tink` module is missing the tests are skipped with a message, unless
/// the environment has `CI=true`: then they run and fail with that message.
enum PythonTink {
    /// `tink_interop.py`, next to this file.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("tink_interop.py")

    /// Whether `CI=true` is set.
    static let isCI = ChildProcess.isCI

    /// Whether `python3 -c "import tink"` succeeds.
    static let isAvailable: Bool = {
        guard let result = try? launch(["-c", "import tink, tink.aead, tink.hybrid"], input: Data()) else { return false }
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
            throw Failure(description: "python3 with the `tink` module is required for the Tink interop tests (pip install tink)")
        }
        let request = try JSONEncoder().encode(["ops": ops])
        let result = try launch([script.path], input: request)
        guard result.status == 0 else {
            throw Failure(description: "tink_interop.py exited with \(result.status): \(String(decoding: result.stderr, as: UTF8.self))")
        }
        struct Response: Decodable { let results: [[String: String]] }
        let response = try JSONDecoder().decode(Response.self, from: result.stdout)
        guard response.results.count == ops.count else { throw Failure(description: "tink_interop.py answered \(response.results.count) of \(ops.count) ops") }
        return response.results
    }

    /// Runs a batch of ops that must all succeed and returns their results.
    static func runAll(_ ops: [[String: String]]) throws -> [[String: String]] {
        let results = try run(ops)
        for (op, result) in zip(ops, results) {
            if let error = result["error"] { throw Failure(description: "Python Tink failed \(op["op"] ?? "?"): \(error)") }
        }
        return results
    }

    private static func launch(_ arguments: [String], input: Data) throws -> (status: Int32, stdout: Data, stderr: Data) {
        let result = try ChildProcess.run("/usr/bin/env", ["python3"] + arguments, input: Array(input))
        return (result.status, Data(result.stdout), Data(result.stderr.utf8))
    }
}
