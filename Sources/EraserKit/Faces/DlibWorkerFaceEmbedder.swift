#if os(Linux)
import Foundation

/// The Linux `FaceEmbedder`: dlib's HOG face detector, its 5-point shape predictor and its 128-d
/// ResNet descriptor, run by long-lived `face_worker.py` processes (PyPI's `dlib-bin` and the
/// model files of `face_recognition_models`; nothing is downloaded at run time).
///
/// Each worker loads the models once (about 0.6 s) and then serves one image at a time; images
/// are spread over `workers` processes (by default one per core, at most four; the scan keeps
/// that many photos in flight, `concurrency`). A worker that dies during a request
/// is restarted and the request retried once; a second death fails that request with
/// `FaceError.workerFailed` and the next request starts a fresh worker. A request that exceeds
/// its time limit stops its worker and fails with `FaceError.timedOut`. When Python, dlib or the
/// models are missing every request throws `FaceError.unavailable` with the install hint, without
/// retrying. Boxes are in pixels of the upright image (its EXIF orientation applied).
///
/// Why a worker process and not dlib in process (Debian's `libdlib-dev` through a C++ target):
/// `pip install dlib-bin face_recognition_models numpy Pillow` is the whole installation (prebuilt
/// wheels, no compiler), while the in-process route needs 14 apt packages (BLAS, LAPACK, TBB,
/// OpenCV core), a C++ target whose one translation unit of dlib's DNN templates takes over a
/// minute to compile, and the models from PyPI anyway; and on the same 20 photos Debian's build
/// (19.24, reference BLAS) was slower (26 photos/min against the worker's 36 at the same load).
/// A crash in dlib or an image decoder also ends only the worker, never the app.
public actor DlibWorkerFaceEmbedder: FaceEmbedder {
    /// How the workers are found and run.
    public struct Configuration: Sendable {
        /// The Python interpreter; `nil`: `KINDRED_FACE_PYTHON`, else `python3` on `PATH`.
        public var python: String?
        /// The worker script; `nil`: `KINDRED_FACE_WORKER`, else the copy shipped with EraserKit.
        public var script: URL?
        /// A folder holding dlib's model files; `nil`: `KINDRED_FACE_MODELS`, else the
        /// `face_recognition_models` package's.
        public var models: URL?
        /// How many worker processes run at most (one image each at a time).
        public var workers: Int
        /// How many times the detector may double a small image to find small faces (0–3; each
        /// costs about 4× the detection time). It doubles only while the result fits `detectSide`:
        /// with 1, a 512 px photo is scanned at 1024 px and faces down to about 40 px are found.
        public var upsample: Int
        /// Larger images are decoded at (JPEG: scaled by the decoder to) about this long side;
        /// landmarks and descriptors are taken from this image (at least 64).
        public var maxSide: Int
        /// The detector scans a copy scaled down to this long side (at least 64): its cost grows
        /// with the pixels, so 1024 px is about 2.5 times cheaper than 1280 px upsampled once was;
        /// faces smaller than about 80 px of 1024 (8 % of the long side) are not found in a large
        /// photo.
        public var detectSide: Int
        /// The longest one image may take.
        public var requestTimeout: Duration
        /// The longest a worker may take to load its models.
        public var startTimeout: Duration
        /// The environment the workers run in; `nil`: this process's.
        public var environment: [String: String]?

        /// A configuration; the defaults suit a photo library on a small machine.
        public init(python: String? = nil, script: URL? = nil, models: URL? = nil,
                    workers: Int = Configuration.defaultWorkers, upsample: Int = 1, maxSide: Int = 1280,
                    detectSide: Int = 1024, requestTimeout: Duration = .seconds(120),
                    startTimeout: Duration = .seconds(60), environment: [String: String]? = nil) {
            self.python = python
            self.script = script
            self.models = models
            self.workers = workers
            self.upsample = upsample
            self.maxSide = maxSide
            self.detectSide = detectSide
            self.requestTimeout = requestTimeout
            self.startTimeout = startTimeout
            self.environment = environment
        }

        /// One worker per active core, at most four (each holds its models, about 200 MiB at peak).
        public static var defaultWorkers: Int { min(4, max(1, ProcessInfo.processInfo.activeProcessorCount)) }
    }

    /// What a running worker reported at start.
    public struct WorkerInfo: Sendable, Equatable {
        /// dlib's version.
        public var dlib: String
        /// Python's version.
        public var python: String
        /// The folder the models were loaded from.
        public var models: String
    }

    private let configuration: Configuration
    private var processes: [FaceWorkerProcess?]
    private var idle: [Int]
    private var waiters: [CheckedContinuation<Int, Never>] = []
    private var nextID = 0
    private var unavailable: FaceError?
    private var isShutDown = false
    /// What the most recently started worker reported.
    public private(set) var info: WorkerInfo?

    /// As many images as there are workers: the scan keeps this many photos in flight.
    public nonisolated var concurrency: Int { max(1, configuration.workers) }

    /// An embedder; no worker starts before the first request (or `start()`).
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let count = max(1, configuration.workers)
        processes = Array(repeating: nil, count: count)
        idle = Array((0..<count).reversed())
    }

    /// Starts one worker now, so a missing installation is reported before a scan begins.
    /// - Throws: `FaceError.unavailable` with the install hint.
    public func start() async throws(EraserKitError) {
        let slot = await acquire()
        defer { release(slot) }
        _ = try await process(in: slot)
    }

    public func faces(in url: URL) async throws(EraserKitError) -> [DetectedFace] {
        guard url.isFileURL else { throw .faces(.unreadableImage(path: url.absoluteString, reason: "not a file")) }
        let path = url.path
        let slot = await acquire()
        defer { release(slot) }
        var lastDeath = ""
        for _ in 0..<2 {
            let process = try await process(in: slot)
            nextID += 1
            let request = FaceWorkerMessages.Request(
                id: nextID, path: path, upsample: configuration.upsample, maxSide: configuration.maxSide,
                detectSide: configuration.detectSide)
            let line: Data
            do { line = try JSONEncoder().encode(request) } catch {
                throw .faces(.unreadableImage(path: path, reason: "the path cannot be encoded"))
            }
            switch await process.request(line, id: request.id, timeout: configuration.requestTimeout) {
            case .answer(let answer):
                return try FaceWorkerMessages.faces(from: answer, path: path)
            case .timedOut:
                processes[slot] = nil
                let (seconds, attoseconds) = configuration.requestTimeout.components
                throw .faces(.timedOut(path: path, seconds: Double(seconds) + Double(attoseconds) / 1e18))
            case .died(let reason):
                processes[slot] = nil
                if isShutDown { throw .faces(.shutDown) }
                lastDeath = reason
            }
        }
        throw .faces(.workerFailed("the worker died twice on \(path): \(lastDeath)"))
    }

    /// Stops every worker (each finishes its current image first) and waits for them to exit;
    /// later requests throw `FaceError.shutDown`.
    public func shutdown() async {
        isShutDown = true
        let running = processes.compactMap { $0 }
        processes = processes.map { _ in nil }
        for process in running { process.closeInput() }
        for process in running { await process.waitForExit() }
        let waiting = waiters
        waiters = []
        waiting.forEach { $0.resume(returning: -1) }
    }

    /// The process ids of the running workers (for tests and diagnostics).
    var runningProcessIDs: [pid_t] { processes.compactMap { $0 }.filter { !$0.hasExited }.map(\.pid) }

    deinit {
        // Closing their input ends the workers once they finish the image in hand.
        processes.forEach { $0?.closeInput() }
    }

    // MARK: - Workers

    /// The running worker in `slot`, started (and its models loaded) when needed.
    private func process(in slot: Int) async throws(EraserKitError) -> FaceWorkerProcess {
        if isShutDown || slot < 0 { throw .faces(.shutDown) }
        if let unavailable { throw .faces(unavailable) }
        if let running = processes[slot], !running.hasExited { return running }
        let environment = configuration.environment ?? ProcessInfo.processInfo.environment
        do {
            let python = try FaceWorkerLocation.python(explicit: configuration.python, environment: environment)
            let script = try FaceWorkerLocation.script(explicit: configuration.script, environment: environment)
            var childEnvironment = environment
            if let models = configuration.models { childEnvironment["KINDRED_FACE_MODELS"] = models.path }
            let process = try FaceWorkerProcess.start(python: python, script: script.path, environment: childEnvironment)
            let hello = try await Self.hello(from: process.ready(timeout: configuration.startTimeout))
            info = WorkerInfo(dlib: hello.dlib ?? "?", python: hello.python ?? "?", models: hello.models ?? "?")
            processes[slot] = process
            return process
        } catch {
            if case .faces(let reason) = error, case .unavailable = reason { unavailable = reason }
            throw error
        }
    }

    /// The worker's start-up report, or why it is unavailable.
    private static func hello(from outcome: FaceWorkerOutcome) throws(EraserKitError) -> FaceWorkerMessages.Hello {
        switch outcome {
        case .answer(let line):
            guard let hello = try? JSONDecoder().decode(FaceWorkerMessages.Hello.self, from: line) else {
                throw .faces(.unavailable("the face worker started with \(String(decoding: line.prefix(200), as: UTF8.self))"))
            }
            guard hello.ready else { throw .faces(.unavailable(hello.error?.message ?? "the face worker did not start")) }
            return hello
        case .died(let reason): throw .faces(.unavailable("the face worker did not start: \(reason)"))
        case .timedOut: throw .faces(.unavailable("the face worker did not load its models in time"))
        }
    }

    /// Waits for a free worker slot (-1 after `shutdown()`).
    private func acquire() async -> Int {
        if let slot = idle.popLast() { return slot }
        return await withCheckedContinuation { waiters.append($0) }
    }

    /// Hands `slot` to the next waiter, or marks it free.
    private func release(_ slot: Int) {
        guard slot >= 0 else { return }
        if waiters.isEmpty { idle.append(slot) } else { waiters.removeFirst().resume(returning: slot) }
    }
}
#endif
