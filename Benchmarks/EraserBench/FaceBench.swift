// `kindred-eraser-bench faces DIR REFERENCE [WORKERS]` (scripts/bench-eraser-faces): the face
// phase's throughput in photos per minute, against the seed's 500 a minute on an iPhone 12.
//
// DIR holds the generated face photos (JPEGs), REFERENCE one photo of the ex. Measured in the same
// run on the same files:
// - baseline: decoding every JPEG to RGB with Pillow, the decoder the worker itself uses (one
//   Python process, timed inside it), so the ratio is what dlib's detection and descriptors add;
// - the scan's face phase: `ScanEngine` over a `FolderPhotoLibrary` of DIR with the reference,
//   the way `EraserDevice` runs it (the default pool, one worker per core, as many photos of a
//   batch in flight; the workers are started before the clock so model loading is not counted);
// - the worker pool alone: `DlibWorkerFaceEmbedder` with WORKERS workers and WORKERS photos in
//   flight at once.
// Peak memory: this process, and the largest worker (RUSAGE_CHILDREN after the workers exit).
#if canImport(Glibc)
import Glibc
#endif
import Crypto
import EraserKit
import Foundation

enum FaceBench {
    static func run(folder: URL, reference: URL, workers: Int) async throws {
        let photos = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.lowercased().hasSuffix(".jpg") }.sorted().map { folder.appendingPathComponent($0) }
        guard !photos.isEmpty else {
            print("no .jpg photos in \(folder.path)")
            exit(2)
        }
        print("\(photos.count) photos in \(folder.path); reference \(reference.lastPathComponent); \(workers) workers for the pool")

        let baseline = try pillowDecodeSeconds(photos)
        print(String(format: "baseline (Pillow decode of the same JPEGs): %.2f s = %.0f photos/min", baseline, perMinute(photos.count, baseline)))

        // The scan's face phase, as the device runs it.
        let scanRoot = FileManager.default.temporaryDirectory.appendingPathComponent("kindred-eraser-face-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: scanRoot) }
        try FileManager.default.createDirectory(at: scanRoot, withIntermediateDirectories: true)
        let library = try FolderPhotoLibrary(root: folder, timeZone: TimeZone(identifier: "UTC")!)
        _ = try library.assetCount()  // The index is built before the clock starts.
        let single = DlibWorkerFaceEmbedder()
        try await withThrowingTaskGroup(of: Void.self) { group in  // Every worker loads its models now.
            for _ in 0..<single.concurrency { group.addTask { try await single.start() } }
            try await group.waitForAll()
        }
        let engine = ScanEngine(library: library, embedder: single,
                                store: try ScanStore(profile: scanRoot, key: try ScanStoreKey(SymmetricKey(size: .bits256))))
        var summary: ScanSummary?
        let phase = try await seconds {
            summary = try await engine.start(ScanConfiguration(references: .photos([reference]), timeZone: TimeZone(identifier: "UTC")!))
        }
        await single.shutdown()
        let matched = summary?.byCategory[.face] ?? 0
        print(String(format: "scan face phase (%d workers, %d photos + the reference): %.2f s = %.0f photos/min = %.1fx baseline; %d matched",
                     single.concurrency, photos.count, phase, perMinute(photos.count, phase), phase / baseline, matched))

        // The pool alone, WORKERS requests in flight.
        let pool = DlibWorkerFaceEmbedder(configuration: .init(workers: workers))
        try await pool.start()
        var faces = 0
        let pooled = try await seconds {
            faces = try await withThrowingTaskGroup(of: Int.self) { group in
                var next = 0
                var total = 0
                for _ in 0..<min(workers, photos.count) {
                    let url = photos[next]
                    next += 1
                    group.addTask { try await pool.faces(in: url).count }
                }
                while let count = try await group.next() {
                    total += count
                    if next < photos.count {
                        let url = photos[next]
                        next += 1
                        group.addTask { try await pool.faces(in: url).count }
                    }
                }
                return total
            }
        }
        await pool.shutdown()
        print(String(format: "worker pool (%d workers): %.2f s = %.0f photos/min = %.1fx baseline; %d faces; seed's iPhone 12: 500/min",
                     workers, pooled, perMinute(photos.count, pooled), pooled / baseline, faces))
        var children = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &children)
        print(String(format: "peak memory: this process %.0f MiB, largest worker %.0f MiB", peakMiB(), Double(children.ru_maxrss) / 1024))
    }

    static func perMinute(_ count: Int, _ seconds: Double) -> Double { seconds > 0 ? Double(count) / seconds * 60 : 0 }

    /// Seconds Pillow takes to decode every photo to RGB, timed inside one Python process.
    static func pillowDecodeSeconds(_ photos: [URL]) throws -> Double {
        let script = """
            import sys, time
            from PIL import Image
            paths = sys.stdin.read().splitlines()
            start = time.perf_counter()
            for path in paths:
                with Image.open(path) as image:
                    image.convert("RGB").load()
            print(time.perf_counter() - start)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(photos.map(\.path).joined(separator: "\n").utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let value = Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            print("the Pillow baseline failed (pip install Pillow)")
            exit(1)
        }
        return value
    }
}
