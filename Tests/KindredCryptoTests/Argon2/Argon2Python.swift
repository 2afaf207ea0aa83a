import Foundation
import KindredTestSupport
import Testing

/// Runs `Interop/argon2_interop.py` (argon2-cffi and hashlib) as the independent peer of the
/// Argon2id interop tests. With `CI=true` a missing python3 or argon2-cffi fails the tests;
/// otherwise they are skipped with the reason in their trait.
enum Argon2Python {
    /// Where the interop script lives, found from this source file's path.
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/argon2_interop.py")

    /// Whether the environment says this is CI (then the peer must be present).
    static let isCI = ChildProcess.isCI

    /// Whether python3 can import argon2-cffi and run the script.
    static let isAvailable: Bool = (try? run(["command": "check"]))?["ok"] as? Bool == true

    /// Interop tests run when the peer is available, and always on CI (where its absence fails them).
    static let enabled = isAvailable || isCI

    /// Sends one request to the script and returns its JSON answer.
    static func run(_ request: [String: Any]) throws -> [String: Any] {
        let requestFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("argon2-interop-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: request).write(to: requestFile)
        defer { try? FileManager.default.removeItem(at: requestFile) }
        let result = try ChildProcess.run("/usr/bin/env", ["python3", script.path, requestFile.path])
        guard result.status == 0,
              let answer = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any] else {
            throw InteropFailure(message: "argon2_interop.py \(request["command"] ?? "") failed: \(result.stderr)")
        }
        return answer
    }

    /// The interop script failed or answered something unexpected.
    struct InteropFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
