import NIOPosix

/// A task executor whose jobs run on a one-thread `NIOThreadPool`: the thread that also runs
/// the SQLite calls of the connection opened on that pool.
///
/// The group commit's writer task runs here. Each statement then goes from the writer's code
/// to SQLite and back through the pool's queue on the same thread, instead of waking a pool
/// thread and then waiting for a turn among the request tasks on Swift's shared threads.
final class ThreadPoolTaskExecutor: TaskExecutor {
    private let threadPool: NIOThreadPool

    /// An executor over `threadPool`, which should have one thread (with more, jobs still run
    /// one at a time per task, but on any of them).
    init(threadPool: NIOThreadPool) {
        self.threadPool = threadPool
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        threadPool.submit { _ in
            // Run even when the pool is shutting down: a task must not be left suspended. The
            // pool is shut down only after the writer has stopped.
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
