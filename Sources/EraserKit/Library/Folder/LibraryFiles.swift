import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `lstat` says of a file, as the library's index keeps it.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    /// The modification time in nanoseconds since 1970.
    var modificationNanos: Int64
    var isRegularFile: Bool
    var isDirectory: Bool

    var modificationDate: Date { Self.date(nanos: modificationNanos) }

    static func date(nanos: Int64) -> Date {
        let seconds = nanos.quotientAndRemainder(dividingBy: 1_000_000_000)
        let (whole, fraction) = seconds.remainder < 0 ? (seconds.quotient - 1, seconds.remainder + 1_000_000_000) : seconds
        return Date(timeIntervalSince1970: Double(whole) + Double(fraction) / 1e9)
    }

    /// Nanoseconds since 1970 for `date`, such that `date(nanos: nanos(d)) == d` (the whole
    /// seconds and the fraction are converted apart, so no precision is lost).
    static func nanos(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        let fraction = min(((seconds - whole) * 1e9).rounded(), 999_999_999)
        return Int64(whole) * 1_000_000_000 + Int64(fraction)
    }
}

/// The POSIX calls the folder library makes: `lstat`, a walk that skips hidden names and symbolic
/// links, moves that never overwrite, copies that keep the modification time, fingerprints.
enum LibraryFiles {
    /// The `lstat` of `path`, `nil` when nothing is there.
    static func identity(_ path: String) throws(LibraryError) -> FileIdentity? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw .fileSystem(path: path, reason: lastError())
        }
        return FileIdentity(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modificationNanos: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            isRegularFile: info.st_mode & S_IFMT == S_IFREG, isDirectory: info.st_mode & S_IFMT == S_IFDIR)
    }

    static func lastError() -> String { String(cString: strerror(errno)) }

    /// The entries of a folder: names (those that are valid UTF-8) and whether each is a folder,
    /// a regular file or something else (symbolic links are "something else").
    static func entries(_ path: String) throws(LibraryError) -> [(name: String, kind: EntryKind)] {
        guard let directory = opendir(path) else { throw .fileSystem(path: path, reason: lastError()) }
        defer { closedir(directory) }
        var result: [(String, EntryKind)] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(validatingCString: $0) }
            }
            guard let name, name != ".", name != ".." else { continue }
            let kind: EntryKind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): kind = .folder
            case Int32(DT_REG): kind = .file
            case Int32(DT_UNKNOWN):
                // Some file systems do not fill d_type: ask lstat.
                let identity = try identity(path + "/" + name)
                kind = identity?.isDirectory == true ? .folder : identity?.isRegularFile == true ? .file : .other
            default: kind = .other
            }
            result.append((name, kind))
        }
        return result
    }

    enum EntryKind { case folder, file, other }

    /// Creates `path` and its missing parents (mode 0700 for the library's own folders).
    static func makeFolders(_ path: String, privateMode: Bool = false) throws(LibraryError) {
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true,
                attributes: privateMode ? [.posixPermissions: 0o700] : nil)
        } catch {
            throw .fileSystem(path: path, reason: "cannot create the folder (\(error.localizedDescription))")
        }
    }

    /// Moves `source` to `destination` without ever replacing a file there (then `.pathTaken`).
    /// Within one file system the file keeps its inode and modification time (`link` + `unlink`,
    /// or `rename` after a check where hard links are not supported); across file systems it is
    /// copied with its modification time, then the source is removed.
    static func move(_ source: String, to destination: String) throws(LibraryError) {
        if try identity(destination) != nil { throw .pathTaken(destination) }
        if link(source, destination) == 0 {
            guard unlink(source) == 0 else { throw .fileSystem(path: source, reason: lastError()) }
            return
        }
        switch errno {
        case EEXIST:
            throw .pathTaken(destination)
        case EXDEV:
            try copy(source, to: destination)
            guard unlink(source) == 0 else { throw .fileSystem(path: source, reason: lastError()) }
        case EPERM, ENOTSUP, EMLINK:
            // No hard links here (FAT, some network shares): the check above, then rename.
            guard rename(source, destination) == 0 else { throw .fileSystem(path: destination, reason: lastError()) }
        default:
            throw .fileSystem(path: source, reason: "cannot move it to \(destination): \(lastError())")
        }
    }

    /// Copies `source` to a new file `destination` (which must not exist) with the source's
    /// modification time, flushed to disk.
    static func copy(_ source: String, to destination: String, modificationNanos: Int64? = nil) throws(LibraryError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .fileSystem(path: source, reason: lastError()) }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else {
            if errno == EEXIST { throw .pathTaken(destination) }
            throw .fileSystem(path: destination, reason: lastError())
        }
        var failed = true
        defer {
            close(output)
            if failed { unlink(destination) }
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let got = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw .fileSystem(path: source, reason: lastError())
            }
            if got == 0 { break }
            var written = 0
            while written < got {
                let put = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, got - written) }
                if put < 0 {
                    if errno == EINTR { continue }
                    throw .fileSystem(path: destination, reason: lastError())
                }
                written += put
            }
        }
        var info = stat()
        guard fstat(input, &info) == 0 else { throw .fileSystem(path: source, reason: lastError()) }
        let nanos = modificationNanos ?? Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        var times = [timespec(tv_sec: 0, tv_nsec: utimeOmit), timespec(nanos: nanos)]
        guard futimens(output, &times) == 0, fsync(output) == 0 else { throw .fileSystem(path: destination, reason: lastError()) }
        failed = false
    }

    /// Deletes a file; a file already gone is fine.
    static func remove(_ path: String) throws(LibraryError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw .fileSystem(path: path, reason: lastError()) }
    }

    /// Deletes a folder if it is empty (anything else is left as it is).
    static func removeFolderIfEmpty(_ path: String) {
        _ = rmdir(path)
    }

    /// Bytes read from each end of a file for its fingerprint.
    static let fingerprintWindow = 64 << 10

    /// A content fingerprint: SHA-256 of the size (8 bytes, big-endian), the first 64 KiB and the
    /// last 64 KiB (the whole file when it is 128 KiB or less). It tells two photos apart by
    /// their EXIF and entropy-coded data without reading a large video whole.
    static func fingerprint(_ path: String) throws(LibraryError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .fileSystem(path: path, reason: lastError()) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .fileSystem(path: path, reason: lastError()) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .fileSystem(path: path, reason: "not a regular file") }
        let size = Int(info.st_size)
        var hasher = SHA256()
        withUnsafeBytes(of: UInt64(size).bigEndian) { hasher.update(bufferPointer: $0) }
        let ranges = size <= 2 * fingerprintWindow
            ? [0..<size] : [0..<fingerprintWindow, (size - fingerprintWindow)..<size]
        for range in ranges {
            var buffer = [UInt8](repeating: 0, count: range.count)
            var done = 0
            while done < range.count {
                let got = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, range.count - done, off_t(range.lowerBound + done)) }
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { throw .fileSystem(path: path, reason: got == 0 ? "the file shrank while read" : lastError()) }
                done += got
            }
            hasher.update(data: buffer)
        }
        return hex(Array(hasher.finalize()))
    }

    /// Lower-case hexadecimal.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Sets a file's modification time (its access time is left alone).
    static func setModificationTime(_ path: String, nanos: Int64) throws(LibraryError) {
        var times = [timespec(tv_sec: 0, tv_nsec: utimeOmit), timespec(nanos: nanos)]
        guard utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0 else {
            throw .fileSystem(path: path, reason: lastError())
        }
    }
}

extension timespec {
    init(nanos: Int64) {
        let (seconds, remainder) = nanos.quotientAndRemainder(dividingBy: 1_000_000_000)
        self.init(tv_sec: Int(remainder < 0 ? seconds - 1 : seconds), tv_nsec: Int(remainder < 0 ? remainder + 1_000_000_000 : remainder))
    }
}

/// Linux's `UTIME_OMIT` (`(1 << 30) - 2`): leave that time unchanged. A macro Swift does not import.
private let utimeOmit = (1 << 30) - 2
