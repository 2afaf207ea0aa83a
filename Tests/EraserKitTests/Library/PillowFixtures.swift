import Foundation
import KindredTestSupport
import Testing

/// Runs `Support/Python/make_library.py` (Python's Pillow) to write photos with EXIF made by an
/// independent writer. Without `python3` or Pillow the tests that use it are skipped with a
/// message, unless `CI=true`: then they run and fail with that message.
enum PillowFixtures {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Support/Python/make_library.py")

    /// Whether `python3 -c "import PIL"` succeeds.
    static let isAvailable: Bool = {
        guard let result = try? ChildProcess.run("/usr/bin/env", ["python3", "-c", "import PIL"]) else { return false }
        return result.status == 0
    }()

    /// Run when Pillow is here, and always on CI (where a missing Pillow fails).
    static var shouldRun: Bool { isAvailable || ChildProcess.isCI }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes `files` (see the script's header for their keys) under `root`.
    static func write(root: URL, files: [[String: Any]]) throws {
        guard isAvailable else {
            throw Failure(description: "python3 with Pillow is required for these tests (pip install Pillow)")
        }
        let request = try JSONSerialization.data(withJSONObject: ["root": root.path, "files": files])
        let result = try ChildProcess.run("/usr/bin/env", ["python3", script.path], input: Array(request))
        guard result.status == 0 else { throw Failure(description: "make_library.py exited with \(result.status): \(result.stderr)") }
    }
}
