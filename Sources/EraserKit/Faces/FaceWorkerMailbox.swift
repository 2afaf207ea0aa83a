#if os(Linux)
import Foundation
import Synchronization
import Glibc

/// What became of one exchange with the worker.
enum FaceWorkerOutcome: Sendable, Equatable {
    /// The worker's answer line (a JSON object).
    case answer(Data)
    /// The worker ended before answering; the reason quotes its exit status and standard error.
    case died(String)
    /// No answer within the time limit; the worker was stopped.
    case timedOut
}

/// The meeting point of the requests waiting for answers and the thread reading the worker's
/// standard output: each answer line goes to the request with the same `id`, and when the worker
/// ends every waiting request learns why.
final class FaceWorkerMailbox: Sendable {
    /// The key of the worker's start-up line, which carries no `id`.
    static let readyKey = -1

    private struct State {
        /// The worker's standard input, or -1 once closed.
        var input: Int32
        /// The requests waiting for an answer, by `id`.
        var waiting: [Int: CheckedContinuation<FaceWorkerOutcome, Never>] = [:]
        /// Answers that arrived before anyone waited for them (the start-up line, usually).
        var early: [Int: Data] = [:]
        /// Why the worker ended, once it has.
        var death: String?
        /// Whoever waits for the worker to end.
        var exitWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    /// A mailbox that writes requests to `input` (the worker's standard input).
    init(input: Int32) {
        state = Mutex(State(input: input))
    }

    /// Whether the worker has ended and was reaped.
    var hasExited: Bool { state.withLock { $0.death != nil } }

    /// Writes `line` (when given) and waits for the answer keyed `key`, for at most `timeout`, after
    /// which `onTimeout` runs (it stops the worker) and the outcome is `.timedOut`.
    func exchange(key: Int, line: Data?, timeout: Duration, onTimeout: @escaping @Sendable () -> Void) async -> FaceWorkerOutcome {
        let timer = FaceWorkerTimer()
        defer { timer.cancel() }
        return await withCheckedContinuation { (continuation: CheckedContinuation<FaceWorkerOutcome, Never>) in
            let immediate: FaceWorkerOutcome? = state.withLock { state in
                if let answer = state.early.removeValue(forKey: key) { return .answer(answer) }
                if let death = state.death { return .died(death) }
                if let line {
                    guard state.input >= 0 else { return .died("its input was closed") }
                    if let failure = Self.send(line + [UInt8(ascii: "\n")], to: state.input) { return .died(failure) }
                }
                state.waiting[key] = continuation
                return nil
            }
            if let immediate {
                continuation.resume(returning: immediate)
                return
            }
            timer.start(after: timeout) { [self] in
                guard let waiting = state.withLock({ $0.waiting.removeValue(forKey: key) }) else { return }
                onTimeout()
                waiting.resume(returning: .timedOut)
            }
        }
    }

    /// Closes the worker's standard input (once).
    func closeInput() {
        state.withLock { state in
            guard state.input >= 0 else { return }
            close(state.input)
            state.input = -1
        }
    }

    /// Waits until the worker has ended.
    func waitForExit() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = state.withLock { state in
                if state.death != nil { return true }
                state.exitWaiters.append(continuation)
                return false
            }
            if ended { continuation.resume() }
        }
    }

    /// The reader thread's loop: splits `descriptor` into lines and delivers them until end of file,
    /// then reaps `pid` and tells every waiting request that the worker died.
    func readAnswers(from descriptor: Int32, pid: pid_t, errorTail: FaceWorkerErrorTail) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var pending: [UInt8] = []
        var sawReady = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            pending.append(contentsOf: buffer[0..<count])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(pending[..<newline])
                pending.removeSubrange(...newline)
                if !sawReady {
                    sawReady = true
                    deliver(line, key: Self.readyKey)
                } else if let key = try? JSONDecoder().decode(AnswerKey.self, from: line).id {
                    deliver(line, key: key)
                }
            }
        }
        close(descriptor)
        // Waits for the exit without reaping, so `stop()` can never signal a recycled pid: the pid
        // is released below, under the lock that `hasExited` reads.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
        errorTail.waitForEnd()
        let (waiting, exitWaiters, death): ([CheckedContinuation<FaceWorkerOutcome, Never>], [CheckedContinuation<Void, Never>], String) =
            state.withLock { state in
                var status: Int32 = 0
                let reaped = waitpid(pid, &status, WNOHANG) == pid
                let signal = status & 0x7F
                var death = !reaped ? "it closed its output"
                    : signal == 0 ? "it exited with status \((status >> 8) & 0xFF)" : "it was ended by signal \(signal)"
                let tail = errorTail.text
                if !tail.isEmpty { death += " (\(tail.split(separator: "\n").suffix(3).joined(separator: " | ")))" }
                state.death = death
                if state.input >= 0 {
                    close(state.input)
                    state.input = -1
                }
                defer { state.waiting = [:]; state.exitWaiters = [] }
                return (Array(state.waiting.values), state.exitWaiters, death)
            }
        waiting.forEach { $0.resume(returning: .died(death)) }
        exitWaiters.forEach { $0.resume() }
    }

    private func deliver(_ line: Data, key: Int) {
        let waiting = state.withLock { state in
            guard let waiting = state.waiting.removeValue(forKey: key) else {
                state.early[key] = line
                return nil as CheckedContinuation<FaceWorkerOutcome, Never>?
            }
            return waiting
        }
        waiting?.resume(returning: .answer(line))
    }

    /// Writes all of `bytes` to the socket `descriptor` without raising `SIGPIPE`.
    /// - Returns: why it failed, or `nil`.
    private static func send(_ bytes: Data, to descriptor: Int32) -> String? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.send(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                return "cannot write to it: \(String(cString: strerror(errno)))"
            }
            offset += written
        }
        return nil
    }

    /// The part of an answer that says which request it answers.
    private struct AnswerKey: Decodable {
        var id: Int?
    }
}

/// A request's time limit: a task that sleeps and then fires, cancelled when the answer comes first.
final class FaceWorkerTimer: Sendable {
    /// The sleeping task, and whether `cancel()` came (possibly before `start`).
    private let state = Mutex<(task: Task<Void, Never>?, cancelled: Bool)>((nil, false))

    /// Runs `fire` after `delay` unless cancelled first.
    func start(after delay: Duration, _ fire: @escaping @Sendable () -> Void) {
        let timer = Task {
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled else { return }
            fire()
        }
        let cancelled = state.withLock { state in
            state.task = timer
            return state.cancelled
        }
        if cancelled { timer.cancel() }
    }

    /// Cancels the timer (before or after it started).
    func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}
#endif
