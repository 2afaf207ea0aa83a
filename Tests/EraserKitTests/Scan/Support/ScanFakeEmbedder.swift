import Foundation
import Synchronization
import Testing

@testable import EraserKit

/// A `FaceEmbedder` for scan tests: faces by file name (without extension), every call counted,
/// and an optional hook run before answering (to cancel a scan at a chosen photo). Unconfigured,
/// every call fails the test.
final class ScanFakeEmbedder: FaceEmbedder {
    private let faces: (@Sendable (String) throws(EraserKitError) -> [DetectedFace])?
    private let hook: (@Sendable (String) async -> Void)?
    private let calls = Mutex<[String]>([])
    /// How many photos the scan may have in flight at once.
    let concurrency: Int

    /// An unconfigured embedder: every call fails the test.
    init() {
        faces = nil
        hook = nil
        concurrency = 1
    }

    /// An embedder answering `faces(name)` for the file `name.jpg`, after running `hook(name)`.
    init(
        concurrency: Int = 1, hook: (@Sendable (String) async -> Void)? = nil,
        faces: @escaping @Sendable (String) throws(EraserKitError) -> [DetectedFace]
    ) {
        self.faces = faces
        self.hook = hook
        self.concurrency = concurrency
    }

    /// The file names asked for, in order.
    var calledNames: [String] { calls.withLock { $0 } }

    func faces(in url: URL) async throws(EraserKitError) -> [DetectedFace] {
        guard let faces else {
            Issue.record("ScanFakeEmbedder.faces(in: \(url.path)) called, but the test configured no faces")
            throw .faces(.unavailable("unconfigured ScanFakeEmbedder"))
        }
        let name = url.deletingPathExtension().lastPathComponent
        calls.withLock { $0.append(name) }
        if let hook { await hook(name) }
        return try faces(name)
    }
}
