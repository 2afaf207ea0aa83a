import Foundation
import Synchronization

/// Drains a pipe on its own thread, so a long-running child never blocks on a full pipe.
public final class PipeCollector: Sendable {
    private let data = Mutex(Data())
    private let done = DispatchSemaphore(value: 0)

    /// Starts reading `handle` until end of file.
    public init(handle: FileHandle) {
        Thread { self.drain(handle) }.start()
    }

    private func drain(_ handle: FileHandle) {
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            data.withLock { $0.append(chunk) }
        }
        done.signal()
    }

    /// What was read so far, as text (the child may still be writing).
    public func snapshot() -> String {
        data.withLock { String(decoding: $0, as: UTF8.self) }
    }

    /// Waits for end of file and returns what was read, as text.
    public func finish() -> String {
        done.wait()
        done.signal()  // a second call returns at once
        return snapshot()
    }
}
