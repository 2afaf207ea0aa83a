import Foundation
import KindredTestSupport
import Testing

/// `kindred eraser scan --refs` on generated photos of real faces (the face tests' fixtures):
/// interrupted with Ctrl-C after the first batch, resumed with `--resume`, the ex's photos found
/// and the other people, the cup and the cat not.
@Suite(.enabled(if: EraserCLI.canScanFaces, "needs dlib-bin, face_recognition_models, scikit-image, insightface"))
struct EraserFaceCommandTests {
    /// The ex's photos in the library (the whole photo, mirrored, greyscale) and the others; the
    /// reference is a crop showing only the face.
    static let ex = ["astronaut.png", "astronaut_flip.png", "astronaut_gray.png"]
    static let others = ["group.jpg", "hanks.png", "coffee.png", "chelsea.png"]

    @Test func aScanInterruptedAfterABatchResumesAndFindsTheExsFaceOnly() throws {
        let folder = try TemporaryDirectory()
        let fixtures = folder.url.appendingPathComponent("fixtures")
        let generated = try ChildProcess.run("/usr/bin/env", ["python3", EraserCLI.faceFixtures.path, fixtures.path])
        try #require(generated.text.contains("\"ok\": true"), "\(generated.text) \(generated.stderr)")
        let photos = folder.url.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for name in Self.ex + Self.others {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: photos.appendingPathComponent(name))
        }
        let cli = EraserCLI(profile: folder.url.appendingPathComponent("profile"))
        try cli.setUp()

        // Ctrl-C once the first batch of two is done: the scan stops after the batch it is in.
        let arguments = ["eraser", "scan", "--photos", photos.path, "--refs", fixtures.appendingPathComponent("astronaut_crop.jpg").path,
                         fixtures.appendingPathComponent("astronaut_small.jpg").path, "--batch-size", "2", "--time-zone", "UTC",
                         "--json", "--profile", cli.profile.path]
        let interrupted = try Self.runInterrupting(arguments, environment: cli.environment(passphrase: cli.passphrase),
                                                   when: "scan: faces (1/1) 2/7")
        #expect(interrupted.status == 1, "\(interrupted.stderr)")
        let error = try #require(try JSONSerialization.jsonObject(with: Data(interrupted.stdout.utf8)) as? [String: Any])
        #expect((error["error"] as? [String: Any])?["code"] as? String == "scan.cancelled")
        #expect(interrupted.stderr.contains("continue with --resume"))

        let resumed = try cli.run(["scan", "--resume", "--json"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let first = try #require(resumed.stderr.split(separator: "\n").first { $0.hasPrefix("scan: faces") })
        let done = Int(first.split(separator: " ")[3].split(separator: "/")[0]) ?? -1
        #expect(done >= 2 && done < 7, "resumed at \(first)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(resumed.text.utf8)) as? [String: Any])
        #expect((summary["byCategory"] as? [String: Int]) == ["face": 3])

        let results = try cli.results()
        #expect(Set(results.compactMap { $0["path"] as? String }) == Set(Self.ex))
        #expect(results.allSatisfy { ($0["categories"] as? [String]) == ["face"] && ($0["confidence"] as? Double ?? 0) > 0.5 })
        let history = try cli.array(["history"])
        #expect(history.count == 1)
        #expect(history.first?["totalMatched"] as? Int == 3)
        #expect(history.first?["totalScanned"] as? Int == 7)
    }

    /// What a finished child printed.
    struct Finished {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `kindred ARGUMENTS`, sends SIGINT once its standard error contains `marker`, and waits.
    static func runInterrupting(_ arguments: [String], environment: [String: String], when marker: String) throws -> Finished {
        let process = Process()
        process.executableURL = ChildProcess.kindredExecutable
        process.arguments = arguments
        process.environment = environment
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var seen = Data()
        var sent = false
        let deadline = Date().addingTimeInterval(300)
        while !sent, Date() < deadline {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }  // The child closed standard error: it ended.
            seen += chunk
            if String(decoding: seen, as: UTF8.self).contains(marker) {
                process.interrupt()
                sent = true
            }
        }
        let rest = errors.fileHandleForReading.readDataToEndOfFile()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(sent, "never saw \(marker)")
        return Finished(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                        stderr: String(decoding: seen + rest, as: UTF8.self))
    }
}
