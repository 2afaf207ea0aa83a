@preconcurrency import AsyncKit
import NIOCore
import NIOPosix
import PostgresNIO

/// Tells an outage from a statement's failure: the errors that mean the database cannot be
/// reached right now (refused or dropped connections, a pool that gave up waiting, a server
/// shutting down), which the server answers with 503 `unavailable` and `Retry-After` rather
/// than 500 `internal` (docs/security.md, "Database outages").
public enum DatabaseUnreachable {
    /// PostgreSQL's SQLSTATEs of a server that is going away or not accepting connections:
    /// class 08 (connection exception), 57P01 admin_shutdown, 57P02 crash_shutdown,
    /// 57P03 cannot_connect_now.
    static let outageStates: Set<String> = ["57P01", "57P02", "57P03"]

    /// Whether `error` (or the error it wraps) says the database cannot be reached.
    public static func matches(_ error: any Error) -> Bool {
        switch error {
        case let error as PSQLError:
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed:
                return true
            case .server:
                guard let state = error.serverInfo?[.sqlState] else { return false }
                return state.hasPrefix("08") || outageStates.contains(state)
            default:
                return error.underlying.map(matches) ?? false
            }
        case is ConnectionPoolTimeoutError, is ConnectionPoolError, is NIOConnectionError:
            return true
        case let error as ChannelError:
            switch error {
            case .ioOnClosedChannel, .alreadyClosed, .eof, .connectTimeout: return true
            default: return false
            }
        case let error as IOError:
            return [ECONNREFUSED, ECONNRESET, ECONNABORTED, EPIPE, ETIMEDOUT, EHOSTUNREACH, ENETUNREACH].contains(error.errnoCode)
        case let error as KindredStoreError:
            if case .connectionFailed = error { return true }
            return false
        default:
            return false
        }
    }
}
