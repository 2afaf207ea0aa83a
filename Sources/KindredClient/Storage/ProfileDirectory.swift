#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A private folder of small files (a device "profile"): created with mode 0700, every file
/// written atomically with mode 0600.
///
/// A file is written to a fresh temporary name opened with `O_CREAT | O_EXCL` and mode 0600,
/// synced, then renamed over the old one: a reader sees the old or the new file, never half of
/// one, and the bytes are never readable by others, not even for a moment.
public struct ProfileDirectory: Sendable {
    /// The folder.
    public let url: URL

    /// The profile in `url` (nothing is created until the first write).
    public init(url: URL) {
        self.url = url
    }

    /// Creates the folder (and missing parents) with mode 0700.
    /// - Throws: `KindredClientError.storage` when a folder cannot be created.
    public func create() throws(KindredClientError) {
        var path = ""
        var status = stat()
        for component in url.standardizedFileURL.path.split(separator: "/", omittingEmptySubsequences: true) {
            path += "/" + component
            if stat(path, &status) == 0 { continue }
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw Self.failure("cannot create \(path)")
            }
        }
        guard stat(url.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
            throw .storage("\(url.path) is not a directory")
        }
    }

    /// The contents of `name`, or `nil` when there is no such file.
    /// - Throws: `KindredClientError.storage` when the file exists but cannot be read.
    public func read(_ name: String) throws(KindredClientError) -> Data? {
        let path = url.appendingPathComponent(name).path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw Self.failure("cannot open \(path)")
        }
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.failure("cannot read \(path)")
            }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    /// Replaces `name` with `data` atomically, as a file of mode 0600; creates the folder first.
    /// - Throws: `KindredClientError.storage` when the file cannot be written.
    public func write(_ name: String, _ data: Data) throws(KindredClientError) {
        try create()
        let path = url.appendingPathComponent(name).path
        let temporary = url.appendingPathComponent(".\(name).\(UUID().uuidString).tmp").path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.failure("cannot create \(temporary)") }
        var written = 0
        let bytes = [UInt8](data)
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let error = Self.failure("cannot write \(temporary)")
                close(fd)
                unlink(temporary)
                throw error
            }
            written += count
        }
        guard fsync(fd) == 0 else {
            let error = Self.failure("cannot sync \(temporary)")
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let error = Self.failure("cannot replace \(path)")
            unlink(temporary)
            throw error
        }
    }

    /// Removes `name`; a missing file is not an error.
    /// - Throws: `KindredClientError.storage` when the file exists and cannot be removed.
    public func remove(_ name: String) throws(KindredClientError) {
        let path = url.appendingPathComponent(name).path
        if unlink(path) != 0 && errno != ENOENT {
            throw Self.failure("cannot remove \(path)")
        }
    }

    /// A storage error naming the operation and the C library's reason for `errno`.
    private static func failure(_ operation: String) -> KindredClientError {
        .storage("\(operation): \(String(cString: strerror(errno)))")
    }
}

/// `read(2)`, named so the methods `read` and `write` above do not shadow it.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

/// `write(2)`, named so the methods `read` and `write` above do not shadow it.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}
