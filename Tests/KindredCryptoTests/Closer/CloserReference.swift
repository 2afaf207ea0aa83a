import Foundation
import KindredTestSupport
import Testing

/// Runs `Interop/closer_reference.py`, an independent Python implementation of Closer's formats
/// (standard library, `cryptography`, `argon2-cffi`, `tink`), with one JSON request per call.
enum CloserReference {
    /// The script, located next to this file's folder.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/closer_reference.py").path

    /// Whether CI demands the interop tests (they fail instead of skipping when Python is missing).
    static let isCI = ChildProcess.isCI

    /// Whether python3 with the needed modules runs here.
    static let available: Bool = {
        (try? run(executable: "/usr/bin/env", ["python3", "-c", "import tink, argon2, cryptography"], input: Data())) != nil
    }()

    /// Interop tests run when the peer is available, and always in CI (where a missing peer fails).
    static let enabled = available || isCI

    /// Sends a request and decodes the JSON response.
    static func call(_ request: [String: Any]) throws -> Any {
        try #require(available, "python3 with tink, argon2-cffi and cryptography is required (CI=true)")
        let output = try run(executable: "/usr/bin/env", ["python3", script], input: JSONSerialization.data(withJSONObject: request))
        return try JSONSerialization.jsonObject(with: output)
    }

    /// Sends a request whose response is a JSON object of strings and Booleans.
    static func object(_ request: [String: Any]) throws -> [String: Any] {
        try #require(try call(request) as? [String: Any])
    }

    private static func run(executable: String, _ arguments: [String], input: Data) throws -> Data {
        let result = try ChildProcess.run(executable, arguments, input: Array(input))
        guard result.status == 0 else { throw ReferenceFailure(message: result.stderr) }
        return Data(result.stdout)
    }

    struct ReferenceFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { "closer_reference.py failed: \(message)" }
    }
}
