import Foundation
import KindredTestSupport
import Testing
@testable import EraserKit

/// The face tests' Python pieces: the real worker's packages, the fixture photos built by
/// `face_fixtures.py`, and the protocol stand-in `face_fake_worker.py`.
///
/// When a package is missing the tests that need it are skipped, unless `CI=true`: then they run
/// and fail with the install hint.
enum FaceTestSupport {
    /// Tests/EraserKitTests/Support/Python.
    static let pythonFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Support/Python")
    /// The stand-in worker.
    static let fakeWorker = pythonFolder.appendingPathComponent("face_fake_worker.py")
    /// The fixture generator.
    static let fixtureGenerator = pythonFolder.appendingPathComponent("face_fixtures.py")

    /// `python3` on the PATH, if any.
    static let python: String? = try? FaceWorkerLocation.python(explicit: nil, environment: ProcessInfo.processInfo.environment)

    /// Whether `python3` exists (the stand-in worker needs nothing else).
    static var hasPython: Bool { python != nil || ChildProcess.isCI }

    /// Whether dlib, its models, Pillow, numpy, scikit-image and insightface's data are installed.
    static let hasDlib: Bool = {
        let probe = "import dlib, face_recognition_models, numpy, PIL, importlib.util as u; "
            + "assert u.find_spec('skimage') and u.find_spec('insightface')"
        guard let result = try? ChildProcess.run("/usr/bin/env", ["python3", "-c", probe]) else { return false }
        return result.status == 0
    }()

    /// Run the real-worker tests when the packages are here, and always on CI.
    static var shouldRunDlib: Bool { hasDlib || ChildProcess.isCI }

    /// The pip packages the real-worker tests need.
    static let installHint = "pip install dlib-bin face_recognition_models numpy Pillow scikit-image && pip install --no-deps insightface"

    /// A failure of the test's own Python pieces.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Builds the fixture photos into a fresh directory (kept alive by the returned value).
    static func fixtures() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let result = try ChildProcess.run("/usr/bin/env", ["python3", fixtureGenerator.path, directory.url.path])
        guard result.status == 0, result.text.contains("\"ok\": true") else {
            throw Failure(description: "face_fixtures.py failed (\(installHint)): \(result.text) \(result.stderr)")
        }
        return directory
    }

    /// An embedder running the stand-in worker with `mode` (FAKE_FACE_WORKER_MODE).
    static func fakeEmbedder(mode: String = "", workers: Int = 1,
                             requestTimeout: Duration = .seconds(30)) -> DlibWorkerFaceEmbedder {
        var environment = ProcessInfo.processInfo.environment
        environment["FAKE_FACE_WORKER_MODE"] = mode
        return DlibWorkerFaceEmbedder(configuration: .init(
            script: fakeWorker, workers: workers, requestTimeout: requestTimeout, environment: environment))
    }

    /// The process id the stand-in worker put in the first descriptor number.
    static func answeringProcess(_ faces: [DetectedFace]) -> Int32? {
        faces.first.flatMap { $0.descriptor.first }.map { Int32($0) }
    }

    /// Runs `body` and returns the `EraserKitError` it threw, or records an issue when it did not throw.
    static func error<T>(_ body: () async throws(EraserKitError) -> T,
                         sourceLocation: SourceLocation = #_sourceLocation) async -> EraserKitError? {
        do {
            _ = try await body()
            Issue.record("expected an error", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }
}
