#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Plain sockets on 127.0.0.1 for the live tests: a free port, and one raw HTTP/1.1 exchange.
public enum LoopbackHTTP {
    /// Asks the kernel for a free loopback port by binding port 0, then releases it.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Sends one raw HTTP/1.1 request and returns the whole response (the server closes after it).
    /// - Parameters:
    ///   - port: the loopback port.
    ///   - head: the request line and headers, ending in an empty line.
    ///   - body: the bytes after the head, sent as they are.
    public static func exchange(port: Int, head: String, body: String = "") throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(fd) }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { throw POSIXError(.ECONNREFUSED) }
        let request = Array((head + body).utf8)
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }  // the server may answer and close before reading everything
            sent += n
        }
        shutdown(fd, Int32(SHUT_WR))
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            response += buffer[0..<n]
        }
        return String(decoding: response, as: UTF8.self)
    }

    /// One raw client connection, sent to and read from in parts (blocking calls: run them off
    /// Swift's cooperative threads).
    public final class Connection: @unchecked Sendable {
        private let fd: Int32

        /// Connects to `port` on 127.0.0.1; reads give up after `readTimeout` seconds.
        public init(port: Int, readTimeout: Int = 10) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw POSIXError(.EMFILE) }
            var address = LoopbackHTTP.loopback(port: port)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            guard connected else {
                close(fd)
                throw POSIXError(.ECONNREFUSED)
            }
            var timeout = timeval(tv_sec: readTimeout, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(fd) }

        /// Sends `text` as it is.
        /// - Throws: `POSIXError(.EPIPE)` when the connection no longer takes bytes.
        public func write(_ text: String) throws {
            #if os(Linux)
            let flags = Int32(MSG_NOSIGNAL)  // a closed connection is an error here, not a signal
            #else
            let flags: Int32 = 0
            #endif
            let bytes = Array(text.utf8)
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, flags) }
                guard n > 0 else { throw POSIXError(.EPIPE) }
                sent += n
            }
        }

        /// Everything the server sends until it closes the connection.
        /// - Throws: `POSIXError(.ETIMEDOUT)` when the connection is still open after the read timeout.
        public func readUntilClosed() throws -> String {
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n == 0 { return String(decoding: received, as: UTF8.self) }
                if n < 0 {
                    if errno == EAGAIN || errno == EWOULDBLOCK { throw POSIXError(.ETIMEDOUT) }
                    if errno == ECONNRESET { return String(decoding: received, as: UTF8.self) }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                received += buffer[0..<n]
            }
        }
    }

    fileprivate static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
