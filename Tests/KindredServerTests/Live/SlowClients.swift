#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Many raw, non-blocking loopback connections that misbehave on purpose (idle, trickling a
/// head, trickling a body), and the moments the server closed each one: the attacker of
/// `ConnectionLimitsLiveTests`. Its calls block; run them with `SlowClients.offPool`.
final class SlowClients: @unchecked Sendable {
    // @unchecked: used by one thread at a time (each call runs to completion on one queue).

    /// How a connection misbehaves.
    enum Kind: Sendable {
        /// Connects and sends nothing.
        case idle
        /// Sends a request head a few bytes at a time and never finishes it.
        case slowHead
        /// Sends a whole head announcing 1,000 bytes of body, then a byte at a time.
        case slowBody
    }

    /// One connection.
    struct Client {
        let fd: Int32
        let kind: Kind
        let openedAt: ContinuousClock.Instant
        var closedAt: ContinuousClock.Instant?
        var received: [UInt8] = []
    }

    private(set) var clients: [Client] = []

    /// Raises this process's open-files soft limit to at least `count` (up to the hard limit).
    static func raiseOpenFilesLimit(to count: Int) {
        var limit = rlimit()
        #if os(Linux)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(count) else { return }
        limit.rlim_cur = min(rlim_t(count), limit.rlim_max)
        _ = setrlimit(resource, &limit)
    }

    /// Runs blocking `work` on a thread outside Swift's cooperative pool.
    static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Opens `count` connections of `kind` to `port` and sends their first bytes.
    func open(_ count: Int, _ kind: Kind, port: Int) throws {
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            guard connected else {
                close(fd)
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECONNREFUSED)
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            clients.append(Client(fd: fd, kind: kind, openedAt: .now))
            switch kind {
            case .idle: break
            case .slowHead: sendText(fd, "GET /health HTTP/1.1\r\nHo")
            case .slowBody:
                sendText(fd, "POST /v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
            }
        }
    }

    /// Sends one more byte on every open slow connection (a slowloris keeping its sockets busy).
    func trickle() {
        for client in clients where client.closedAt == nil && client.kind != .idle {
            sendText(client.fd, client.kind == .slowHead ? "s" : " ")
        }
    }

    /// How many connections the server has not closed yet.
    var openCount: Int { clients.filter { $0.closedAt == nil }.count }

    /// Reads what arrived on every open connection for up to `wait`, and records the moment
    /// each one is closed by the server (end of stream or reset).
    func watch(for wait: Duration) {
        let fds = clients.enumerated().filter { $0.element.closedAt == nil }.map { index, client in
            (index, pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0))
        }
        guard !fds.isEmpty else { return }
        var raw = fds.map(\.1)
        let milliseconds = Int32(wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000)
        guard poll(&raw, nfds_t(raw.count), milliseconds) > 0 else { return }
        for position in raw.indices where raw[position].revents != 0 {
            let index = fds[position].0
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = recv(clients[index].fd, &buffer, buffer.count, 0)
                if n > 0 {
                    clients[index].received += buffer[0..<n]
                    continue
                }
                if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                    clients[index].closedAt = .now
                }
                break
            }
        }
    }

    /// Closes every connection on this side.
    func closeAll() {
        for client in clients { close(client.fd) }
        clients = []
    }

    deinit { closeAll() }

    private func sendText(_ fd: Int32, _ text: String) {
        #if os(Linux)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        _ = Array(text.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, flags) }
    }
}
