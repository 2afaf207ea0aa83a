#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Logging

/// The process's open-files limit (`RLIMIT_NOFILE`), checked against `server.maxConnections`
/// at start: each connection is a file descriptor, and a process out of descriptors stops
/// accepting instead of answering the cap's 503.
enum OpenFilesLimit {
    /// Descriptors kept for everything but client connections: the database pool, log files,
    /// outgoing HTTP clients, refused connections during their linger.
    static let reserve = 256

    /// Raises the soft limit towards the hard limit when `room` connections plus `reserve` do
    /// not fit under it, and warns when they still do not.
    /// - Parameters:
    ///   - room: the connections the server may hold (`server.maxConnections`).
    ///   - logger: where the warning goes.
    static func ensure(room: Int, logger: Logger) {
        var limit = rlimit()
        guard getrlimit(resourceNumber, &limit) == 0 else { return }
        let wanted = rlim_t(room + reserve)
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = min(wanted, limit.rlim_max)
            if setrlimit(resourceNumber, &raised) == 0 { limit = raised }
        }
        if limit.rlim_cur < wanted {
            logger.warning(
                "the open-files limit (\(limit.rlim_cur)) is below server.maxConnections (\(room)) + \(reserve): raise it (ulimit -n, LimitNOFILE=) or lower server.maxConnections"
            )
        }
    }

    #if os(Linux)
    private static let resourceNumber = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resourceNumber = RLIMIT_NOFILE
    #endif
}
