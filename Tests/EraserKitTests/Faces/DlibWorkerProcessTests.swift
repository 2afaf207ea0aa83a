#if os(Linux)
import Foundation
import Glibc
import KindredTestSupport
import Testing
@testable import EraserKit

/// `DlibWorkerFaceEmbedder`'s handling of its worker processes, against `face_fake_worker.py`
/// (the real protocol without dlib): answers, restarts, time limits, start-up failures, pools.
@Suite(.enabled(if: FaceTestSupport.hasPython, "python3 not found (set CI=true to make this a failure)"))
struct DlibWorkerProcessTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    private func photo(_ name: String) -> URL { folder.url.appendingPathComponent(name) }

    @Test func decodesTheWorkersAnswer() async throws {
        let embedder = FaceTestSupport.fakeEmbedder()
        let faces = try await embedder.faces(in: photo("a.jpg"))
        #expect(faces.count == 1)
        #expect(faces.first?.box == FaceBox(x: 1, y: 2, width: 3, height: 4))
        #expect(faces.first?.descriptor.count == 128)
        #expect(Array(faces.first?.descriptor.dropFirst() ?? []) == Array(repeating: 0, count: 127))
        #expect(await embedder.info == .init(dlib: "fake", python: "3", models: "none"))
        await embedder.shutdown()
    }

    @Test func anUnreadableImageIsATypedErrorAndTheSameWorkerKeepsAnswering() async throws {
        let embedder = FaceTestSupport.fakeEmbedder()
        let first = try await embedder.faces(in: photo("a.jpg"))
        let error = await FaceTestSupport.error { () async throws(EraserKitError) in try await embedder.faces(in: photo("unreadable")) }
        #expect(error == .faces(.unreadableImage(path: photo("unreadable").path, reason: "fake: unreadable")))
        #expect(error?.code == "faces.unreadable_image")
        let malformed = await FaceTestSupport.error { () async throws(EraserKitError) in try await embedder.faces(in: photo("malformed")) }
        #expect(malformed?.code == "faces.worker_failed")
        let after = try await embedder.faces(in: photo("b.jpg"))
        #expect(FaceTestSupport.answeringProcess(first) == FaceTestSupport.answeringProcess(after))
        let running: [Int32] = await embedder.runningProcessIDs
        #expect(running == [FaceTestSupport.answeringProcess(after)].compactMap { $0 })
        await embedder.shutdown()
    }

    @Test func aWorkerThatDiesIsRestartedAndTheRequestRetriedOnce() async throws {
        let embedder = FaceTestSupport.fakeEmbedder()
        let before = try await embedder.faces(in: photo("a.jpg"))
        let retried = try await embedder.faces(in: photo("crash-once"))
        #expect(retried.first?.box == FaceBox(x: 1, y: 2, width: 3, height: 4))
        #expect(FaceTestSupport.answeringProcess(retried) != FaceTestSupport.answeringProcess(before))
        #expect(FileManager.default.fileExists(atPath: photo("crash-once").path + ".crashed"))
        await embedder.shutdown()
    }

    @Test func aSecondDeathFailsTheRequestAndTheNextOneStartsAfresh() async throws {
        let embedder = FaceTestSupport.fakeEmbedder()
        let error = await FaceTestSupport.error { () async throws(EraserKitError) in try await embedder.faces(in: photo("crash")) }
        #expect(error?.code == "faces.worker_failed")
        #expect(error?.message.contains("it exited with status 7") == true)
        #expect(await embedder.runningProcessIDs.isEmpty)
        let faces = try await embedder.faces(in: photo("a.jpg"))
        #expect(faces.count == 1)
        await embedder.shutdown()
    }

    @Test func aRequestOverItsTimeLimitStopsTheWorker() async throws {
        let embedder = FaceTestSupport.fakeEmbedder(requestTimeout: .milliseconds(700))
        let first = try await embedder.faces(in: photo("a.jpg"))
        let started = ContinuousClock.now
        let error = await FaceTestSupport.error { () async throws(EraserKitError) in try await embedder.faces(in: photo("hang")) }
        #expect(error == .faces(.timedOut(path: photo("hang").path, seconds: 0.7)))
        #expect(ContinuousClock.now - started < .seconds(10))
        let stopped = try #require(FaceTestSupport.answeringProcess(first))
        try await waitUntilGone(stopped)
        let after = try await embedder.faces(in: photo("b.jpg"))
        #expect(FaceTestSupport.answeringProcess(after) != stopped)
        await embedder.shutdown()
    }

    @Test func aWorkerThatReportsMissingPackagesMakesTheEmbedderUnavailable() async throws {
        let embedder = FaceTestSupport.fakeEmbedder(mode: "unavailable")
        let first = await FaceTestSupport.error { () async throws(EraserKitError) in try await embedder.start() }
        #expect(first == .faces(.unavailable("fake: dlib is missing")))
        let second = await FaceTestSupport.error { () async throws(EraserKitError) in try await embedder.faces(in: photo("a.jpg")) }
        #expect(second == first)
    }

    @Test func aWorkerThatDiesAtStartIsUnavailableWithItsStandardError() async throws {
        let embedder = FaceTestSupport.fakeEmbedder(mode: "die")
        let error = await FaceTestSupport.error { () async throws(EraserKitError) in try await embedder.faces(in: photo("a.jpg")) }
        #expect(error == .faces(.unavailable("the face worker did not start: it exited with status 1 (fake start-up failure)")))
    }

    @Test func aMissingInterpreterOrScriptIsUnavailable() async throws {
        let noPython = DlibWorkerFaceEmbedder(configuration: .init(python: "/nonexistent/python3"))
        let pythonError = await FaceTestSupport.error { () async throws(EraserKitError) in try await noPython.faces(in: photo("a.jpg")) }
        #expect(pythonError == .faces(.unavailable("the Python interpreter /nonexistent/python3 does not exist")))
        let noScript = DlibWorkerFaceEmbedder(configuration: .init(script: URL(fileURLWithPath: "/nonexistent/face_worker.py")))
        let scriptError = await FaceTestSupport.error { () async throws(EraserKitError) in try await noScript.faces(in: photo("a.jpg")) }
        #expect(scriptError == .faces(.unavailable("the face worker /nonexistent/face_worker.py does not exist")))
        var environment = ProcessInfo.processInfo.environment
        environment["KINDRED_FACE_WORKER"] = "/nonexistent/from-env.py"
        let fromEnvironment = DlibWorkerFaceEmbedder(configuration: .init(environment: environment))
        let environmentError = await FaceTestSupport.error { () async throws(EraserKitError) in try await fromEnvironment.start() }
        #expect(environmentError == .faces(.unavailable("the face worker /nonexistent/from-env.py does not exist")))
    }

    @Test func aURLThatIsNotAFileIsUnreadable() async throws {
        let embedder = FaceTestSupport.fakeEmbedder()
        let url = try #require(URL(string: "https://example.com/a.jpg"))
        let error = await FaceTestSupport.error { () async throws(EraserKitError) in try await embedder.faces(in: url) }
        #expect(error == .faces(.unreadableImage(path: "https://example.com/a.jpg", reason: "not a file")))
    }

    @Test func shutdownEndsTheWorkersAndRefusesLaterRequests() async throws {
        let embedder = FaceTestSupport.fakeEmbedder()
        let faces = try await embedder.faces(in: photo("a.jpg"))
        let pid = try #require(FaceTestSupport.answeringProcess(faces))
        await embedder.shutdown()
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
        let error = await FaceTestSupport.error { () async throws(EraserKitError) in try await embedder.faces(in: photo("a.jpg")) }
        #expect(error == .faces(.shutDown))
    }

    @Test func aPoolSpreadsConcurrentRequestsOverItsWorkers() async throws {
        let embedder = FaceTestSupport.fakeEmbedder(workers: 2)
        let slow = photo("slow")
        let answering = try await withThrowingTaskGroup(of: Int32?.self) { group in
            for _ in 0..<4 {
                group.addTask { FaceTestSupport.answeringProcess(try await embedder.faces(in: slow)) }
            }
            var pids: Set<Int32> = []
            for try await pid in group { if let pid { pids.insert(pid) } }
            return pids
        }
        #expect(answering.count == 2)
        #expect(Set(await embedder.runningProcessIDs) == answering)
        await embedder.shutdown()
    }

    /// Waits (at most 5 s) until `pid` no longer exists.
    private func waitUntilGone(_ pid: Int32) async throws {
        for _ in 0..<100 where kill(pid, 0) == 0 {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(kill(pid, 0) == -1)
    }
}
#endif
