#if os(Linux)
import Foundation
import KindredTestSupport
import Testing
@testable import EraserKit

/// Where the worker script and Python are found: explicit paths, environment variables, the
/// shipped copy.
@Suite struct FaceWorkerLocationTests {
    private let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/EraserKit/Faces/Worker/face_worker.py")

    @Test func theShippedScriptIsFoundWithoutConfiguration() throws {
        let found = try FaceWorkerLocation.script(explicit: nil, environment: [:])
        #expect(found.lastPathComponent == "face_worker.py")
        #expect(try Data(contentsOf: found) == Data(contentsOf: source))
    }

    @Test func anExplicitPathWinsOverTheEnvironment() throws {
        let folder = try TemporaryDirectory()
        let explicit = try folder.write("explicit.py", Array("print()".utf8))
        let named = try folder.write("named.py", Array("print()".utf8))
        #expect(try FaceWorkerLocation.script(explicit: explicit, environment: ["KINDRED_FACE_WORKER": named.path]) == explicit)
        #expect(try FaceWorkerLocation.script(explicit: nil, environment: ["KINDRED_FACE_WORKER": named.path]).path == named.path)
    }

    @Test func pythonComesFromTheVariableOrThePath() throws {
        let folder = try TemporaryDirectory()
        let fake = try folder.write("python3", Array("#!/bin/sh\n".utf8))
        #expect(chmod(fake.path, 0o755) == 0)
        #expect(try FaceWorkerLocation.python(explicit: nil, environment: ["PATH": "/nonexistent:\(folder.url.path)"]) == fake.path)
        #expect(try FaceWorkerLocation.python(explicit: nil, environment: ["KINDRED_FACE_PYTHON": fake.path, "PATH": "/nonexistent"]) == fake.path)
        #expect(throws: EraserKitError.faces(.unavailable("python3 is not installed (or not on PATH; set KINDRED_FACE_PYTHON)"))) {
            try FaceWorkerLocation.python(explicit: nil, environment: ["PATH": "/nonexistent"])
        }
    }
}
#endif
