import Foundation
import KindredTestSupport
import Testing

/// Running `kindred eraser …` on a profile for the CLI tests, and the face photos they scan.
struct EraserCLI {
    let profile: URL
    let passphrase = "correct horse battery staple"

    /// The face tests' fixture generator (scikit-image's and insightface's real faces).
    static let faceFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("EraserKitTests/Support/Python/face_fixtures.py")

    /// Whether dlib, its models, Pillow, scikit-image and insightface's data are installed (the
    /// face tests run when they are, and always on CI, where a missing one fails them).
    static let canScanFaces: Bool = {
        if ChildProcess.isCI { return true }
        let probe = "import dlib, face_recognition_models, numpy, PIL, importlib.util as u; "
            + "assert u.find_spec('skimage') and u.find_spec('insightface')"
        return (try? ChildProcess.run("/usr/bin/env", ["python3", "-c", probe]))?.status == 0
    }()

    /// The environment of a `kindred` child: the passphrase (or none), no ambient profile, UTC.
    func environment(passphrase: String?) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["KINDRED_PROFILE_PASSPHRASE"] = passphrase
        environment["KINDRED_PROFILE"] = nil
        environment["TZ"] = "UTC"  // Cooling Off counts calendar days in the device's zone.
        return environment
    }

    /// `kindred eraser ARGUMENTS --profile PROFILE`, unlocked with the passphrase.
    func run(_ arguments: [String], stdin: String = "", locked: Bool = false) throws -> ChildProcess.Result {
        try ChildProcess.run(ChildProcess.kindredExecutable.path, ["eraser"] + arguments + ["--profile", profile.path],
                             input: Array(stdin.utf8), environment: environment(passphrase: locked ? nil : passphrase))
    }

    /// Runs a command that must succeed with `--json` and returns its JSON document.
    func json(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Any {
        let result = try run(arguments + ["--json"])
        #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return try JSONSerialization.jsonObject(with: Data(result.text.utf8))
    }

    /// `json` for a command printing an object.
    func object(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        try #require(try json(arguments, sourceLocation: sourceLocation) as? [String: Any], sourceLocation: sourceLocation)
    }

    /// `json` for a command printing an array of objects.
    func array(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        try #require(try json(arguments, sourceLocation: sourceLocation) as? [[String: Any]], sourceLocation: sourceLocation)
    }

    /// Sets the profile up (the passphrase on standard input).
    func setUp() throws {
        let result = try ChildProcess.run(ChildProcess.kindredExecutable.path, ["eraser", "setup", "--json", "--profile", profile.path],
                                          input: Array((passphrase + "\n").utf8), environment: environment(passphrase: nil))
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// The review's results (`review --json`).
    func results() throws -> [[String: Any]] {
        try #require(try object(["review"])["results"] as? [[String: Any]])
    }
}
