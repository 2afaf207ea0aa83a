import Foundation

/// Drains a pipe on its own thread, so a long-running child never blocks on a full pipe.
public final class PipeCollector: @unchecked Sendable {
    // @unchecked: `data` is written only by the reader thread before `done` is signalled,
    // and read only after waiting on `done`.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    /// Starts reading `handle` until end of file.
    public init(handle: FileHandle) {
        Thread {
            self.data = handle.readDataToEndOfFile()
            self.done.signal()
        }.start()
    }

    /// Waits for end of file and returns what was read, as text.
    public func finish() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
