#if os(Linux)
import Foundation

/// Where the face worker's script and its Python interpreter are.
///
/// The script ships with the library as a resource (`Faces/Worker/face_worker.py`, copied by
/// SwiftPM into `Kindred_EraserKit.resources/Worker/` next to the executable, which is where a
/// release `kindred` finds it); an explicit path or `KINDRED_FACE_WORKER` overrides it, and a
/// build that runs from the source tree (tests) finds it next to this file.
enum FaceWorkerLocation {
    /// The environment variable naming the worker script.
    static let scriptVariable = "KINDRED_FACE_WORKER"
    /// The environment variable naming the Python interpreter.
    static let pythonVariable = "KINDRED_FACE_PYTHON"
    /// The name of SwiftPM's resource bundle of the EraserKit target in the Kindred package.
    static let resourceBundle = "Kindred_EraserKit.resources"

    /// The worker script: `explicit`, else `KINDRED_FACE_WORKER`, else the resource copy next to
    /// the executable, else the source tree's copy.
    /// - Throws: `FaceError.unavailable` naming the places searched when none exists.
    static func script(explicit: URL?, environment: [String: String]) throws(EraserKitError) -> URL {
        if let named = explicit ?? environment[scriptVariable].map({ URL(fileURLWithPath: $0) }) {
            guard FileManager.default.isReadableFile(atPath: named.path) else {
                throw .faces(.unavailable("the face worker \(named.path) does not exist"))
            }
            return named
        }
        let executableFolder = Bundle.main.bundleURL
        let candidates = [
            executableFolder.appendingPathComponent(resourceBundle).appendingPathComponent("Worker/face_worker.py"),
            executableFolder.appendingPathComponent(resourceBundle).appendingPathComponent("face_worker.py"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Worker/face_worker.py"),
        ]
        guard let found = candidates.first(where: { FileManager.default.isReadableFile(atPath: $0.path) }) else {
            let searched = candidates.map(\.path).joined(separator: ", ")
            throw .faces(.unavailable("face_worker.py was not found (searched \(searched); set \(scriptVariable))"))
        }
        return found
    }

    /// The Python interpreter: `explicit`, else `KINDRED_FACE_PYTHON`, else `python3` on `PATH`.
    /// - Throws: `FaceError.unavailable` when it is not an executable file.
    static func python(explicit: String?, environment: [String: String]) throws(EraserKitError) -> String {
        if let named = explicit ?? environment[pythonVariable] {
            guard FileManager.default.isExecutableFile(atPath: named) else {
                throw .faces(.unavailable("the Python interpreter \(named) does not exist"))
            }
            return named
        }
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for folder in folders {
            let candidate = "\(folder)/python3"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw .faces(.unavailable("python3 is not installed (or not on PATH; set \(pythonVariable))"))
    }
}
#endif
