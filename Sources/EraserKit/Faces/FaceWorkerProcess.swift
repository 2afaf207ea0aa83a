#if os(Linux)
import Foundation
import Synchronization
import Glibc

/// One running `face_worker.py`, spoken to in JSON lines: requests go to its standard input (a
/// socket, written with `MSG_NOSIGNAL`, so writing to a dead worker fails with `EPIPE` instead of
/// raising `SIGPIPE` in this process), answers come from its standard output, read by a dedicated thread
/// that hands each line to the request waiting for that `id`.
///
/// Started with `posix_spawn` rather than Foundation's `Process`, whose `run()` crashed while other
/// threads opened and closed descriptors (see KindredTestSupport's `ChildProcess`). Every
/// descriptor kept in this process is close-on-exec, so other children never inherit them.
final class FaceWorkerProcess: Sendable {
    /// The worker's process id.
    let pid: pid_t
    private let mailbox: FaceWorkerMailbox

    private init(pid: pid_t, mailbox: FaceWorkerMailbox) {
        self.pid = pid
        self.mailbox = mailbox
    }

    /// Starts `python script` with `environment`.
    /// - Throws: `FaceError.unavailable` when the interpreter cannot be started.
    static func start(python: String, script: String, environment: [String: String]) throws(EraserKitError) -> FaceWorkerProcess {
        // Socket pairs rather than pipes: Glibc's module does not export `pipe2`, and a pipe's
        // close-on-exec flag set afterwards would leave a window for another thread's child.
        var ends: [[Int32]] = []
        for _ in 0..<3 {
            var pair: [Int32] = [-1, -1]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
                let reason = String(cString: strerror(errno))
                ends.joined().forEach { _ = close($0) }
                throw .faces(.unavailable("cannot connect to the face worker: \(reason)"))
            }
            ends.append(pair)
        }
        let (input, output, errors) = (ends[0][0], ends[1][0], ends[2][0])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the copies the child keeps as 0, 1 and 2.
        for (number, pair) in ends.enumerated() {
            posix_spawn_file_actions_adddup2(&actions, pair[1], Int32(number))
        }
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(python), strdup(script)]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") }
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, python, &actions, nil, argv + [nil], envp + [nil])
        // The child's ends are the child's now (or nobody's, when the spawn failed).
        ends.forEach { _ = close($0[1]) }
        guard spawned == 0 else {
            [input, output, errors].forEach { _ = close($0) }
            throw .faces(.unavailable("cannot start \(python): \(String(cString: strerror(spawned)))"))
        }
        let child = pid
        let mailbox = FaceWorkerMailbox(input: input)
        let errorTail = FaceWorkerErrorTail()
        Thread { errorTail.drain(errors) }.start()
        Thread { mailbox.readAnswers(from: output, pid: child, errorTail: errorTail) }.start()
        return FaceWorkerProcess(pid: pid, mailbox: mailbox)
    }

    /// Waits for the worker's first line (its start-up report) for at most `timeout`; after that
    /// the worker is killed.
    func ready(timeout: Duration) async -> FaceWorkerOutcome {
        await mailbox.exchange(key: FaceWorkerMailbox.readyKey, line: nil, timeout: timeout, onTimeout: stop)
    }

    /// Sends `line` (one JSON object, no newline) and waits for the answer that carries `id` for at
    /// most `timeout`; after that the worker is killed.
    func request(_ line: Data, id: Int, timeout: Duration) async -> FaceWorkerOutcome {
        await mailbox.exchange(key: id, line: line, timeout: timeout, onTimeout: stop)
    }

    /// Whether the worker has ended (its standard output closed and the process was reaped).
    var hasExited: Bool { mailbox.hasExited }

    /// Closes the worker's standard input: it finishes the request in hand and exits.
    func closeInput() { mailbox.closeInput() }

    /// Ends the worker at once (`SIGKILL`); the reader thread then reaps it.
    func stop() {
        guard !mailbox.hasExited else { return }
        _ = kill(pid, SIGKILL)
    }

    /// Waits until the worker has exited and been reaped.
    func waitForExit() async { await mailbox.waitForExit() }
}

/// The last few kilobytes the worker wrote to standard error, quoted when it dies.
final class FaceWorkerErrorTail: Sendable {
    private let bytes = Mutex<[UInt8]>([])
    private let ended = DispatchSemaphore(value: 0)
    private static let limit = 2_000

    /// Reads `descriptor` until end of file, keeping the tail, then closes it.
    func drain(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.withLock {
                $0.append(contentsOf: buffer[0..<count])
                if $0.count > Self.limit { $0.removeFirst($0.count - Self.limit) }
            }
        }
        close(descriptor)
        ended.signal()
    }

    /// Waits (at most a second) until the worker's standard error has been read to its end.
    func waitForEnd() {
        if ended.wait(timeout: .now() + 1) == .success { ended.signal() }
    }

    /// The tail as text, trimmed.
    var text: String {
        bytes.withLock { String(decoding: $0, as: UTF8.self) }.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
#endif
