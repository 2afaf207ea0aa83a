import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces a file's contents all at once: the bytes go to a temporary file beside it (hidden,
/// not `.ics`, so no store lists it), which is flushed to disk and then renamed over the file.
/// A reader sees the old file or the new one, never a part. The file keeps its permissions.
enum AtomicFile {
    /// Writes `bytes` as the new contents of `url`.
    /// - Throws: `CalendarError.fileSystem` (the temporary file is removed).
    static func write(_ bytes: [UInt8], to url: URL) throws(CalendarError) {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        func failure(_ path: String) -> CalendarError {
            .fileSystem(path: path, reason: String(cString: strerror(errno)))
        }
        var status = stat()
        let mode: mode_t = stat(url.path, &status) == 0 ? status.st_mode & 0o7777 : 0o644
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw failure(temporary) }
        var done = false
        defer { if !done { unlink(temporary) } }
        var written = 0
        let failed: Bool = bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = posixWrite(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return true
                }
                written += count
            }
            return false
        }
        if failed || fchmod(descriptor, mode) != 0 || fsync(descriptor) != 0 {
            let error = failure(temporary)
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw failure(temporary) }
        guard rename(temporary, url.path) == 0 else { throw failure(url.path) }
        done = true
        let folder = open(url.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }
}

/// `write(2)`, named apart from `AtomicFile.write`.
private func posixWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
